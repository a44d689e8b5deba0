// A tiny helper to build DOM trees.
type Child = Node | string | null | undefined | false;
type Attrs = Record<string, string | number | boolean | EventListener | null | undefined>;

export function h(tag: string, attrs: Attrs = {}, ...children: (Child | Child[])[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") {
      el.addEventListener(k.slice(2), v as EventListener);
    } else if (v === true) {
      el.setAttribute(k, "");
    } else {
      el.setAttribute(k, String(v));
    }
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return el;
}

export function clear(el: HTMLElement, ...children: (Child | Child[])[]): void {
  el.replaceChildren();
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === "string" ? document.createTextNode(c) : c);
  }
}

/** A link inside the client: followed without reloading the page (a new tab still works). */
export function navLink(href: string, go: (path: string) => void, attrs: Attrs, ...children: (Child | Child[])[]): HTMLElement {
  return h("a", {
    href,
    ...attrs,
    onclick: (e: Event) => {
      const m = e as MouseEvent;
      if (m.ctrlKey || m.metaKey || m.shiftKey || m.button > 0) return;
      e.preventDefault();
      go((e.currentTarget as HTMLElement).getAttribute("href") ?? href);
    },
  }, ...children);
}

/**
 * A person's name inside a sentence: wrapped in Unicode isolates (FSI … PDI), so that a name in
 * a right-to-left script cannot reorder the words around it.
 */
export function isolate(name: string): string {
  return `\u2068${name}\u2069`;
}

/**
 * A person's name as an element: isolated (`<bdi>`), on one line and cut with an ellipsis when
 * it does not fit (the whole name in its tooltip). `suffix` (a seat number, "You") is kept whole.
 */
export function nameEl(name: string, suffix = ""): HTMLElement {
  const bdi = h("bdi", { class: "name", title: name }, name);
  return h("span", { class: "person" }, bdi, suffix ? h("span", { class: "suffix" }, suffix) : null);
}
