// A ruleset's page: a preset's (`/rules/{id}`) or a table's own, house rules included
// (`/t/{id}/rules`), with its printable sheets (rules, score cards, score sheet) in both
// languages, as HTML to print from the browser or as PDF. The server makes the sheets.
import { ApiError, api, presets, request, sheetUrl, type SheetKind } from "./api";
import { clear, h, navLink } from "./dom";
import { lang, t } from "./i18n";
import { optionHelp, optionLabel, optionWords, presetName } from "./lobby";

const KINDS: SheetKind[] = ["rules", "scores", "scorepad", "compare"];
const LANGS = [
  { code: "en", label: "English" },
  { code: "ja", label: "日本語" },
];

/** The options of a ruleset as a small table in words; `changed` names the house rules. */
function optionTable(options: Record<string, unknown>, changed: Set<string>): HTMLElement {
  return h("table", { class: "options-table" },
    h("tbody", {}, Object.entries(options).map(([k, v]) =>
      h("tr", { class: changed.has(k) ? "changed" : "", "data-option": k }, h("th", {}, optionLabel(k), optionHelp(k)), h("td", {}, optionWords(k, v), changed.has(k) ? h("span", { class: "badge" }, t("web-house-rule")) : null)))));
}

/**
 * The rules themselves: the text of the printed rules sheet (its sections, lists and tables)
 * in the reader's language, the same words as the sheet, without the sheet's print styles.
 * Nothing when the sheet cannot be had (the links to it are still there).
 */
async function rulesText(target: { preset: string } | { table: string }): Promise<HTMLElement | null> {
  const res = await request(sheetUrl(target, "rules", lang(), "html")).catch(() => null);
  if (!res?.ok) return null;
  // The sheet's own styles go before it is read: even a parsed document keeps to the page's
  // policy, which allows no inline styles.
  const text = (await res.text()).replace(/<style[\s\S]*?<\/style>/gi, "").replace(/\sstyle="[^"]*"/gi, "");
  const sheet = new DOMParser().parseFromString(text, "text/html");
  const parts = [...sheet.querySelectorAll(".page .inner header .house, .page .inner section")];
  if (!parts.length) return null;
  const out = h("article", { class: "rules-text", lang: lang() });
  for (const part of parts) {
    const node = document.importNode(part, true) as Element;
    // Only the text and its structure: no styles or scripts of the sheet's own (the page's
    // policy would refuse them anyway).
    node.querySelectorAll("style, script, link").forEach((e) => e.remove());
    for (const e of [node, ...node.querySelectorAll("*")]) {
      for (const a of [...e.attributes]) if (a.name === "style" || a.name.startsWith("on")) e.removeAttribute(a.name);
    }
    // Wide tables scroll sideways on a phone instead of widening the page.
    node.querySelectorAll("table").forEach((table) => {
      const wrap = h("div", { class: "scroll" });
      table.replaceWith(wrap);
      wrap.append(table);
    });
    out.append(node);
  }
  return out;
}

export async function renderRules(root: HTMLElement, target: { preset: string } | { table: string }, go: (path: string) => void): Promise<() => void> {
  const list = await presets();
  let base: string;
  let overrides: Record<string, unknown> = {};
  let back: HTMLElement;
  if ("preset" in target) {
    base = target.preset;
    back = navLink("/", go, { class: "back" }, "← ", t("web-lobby"));
  } else {
    let ruleset: unknown;
    try {
      ruleset = (await api.table(target.table)).ruleset;
    } catch (e) {
      // A finished table no longer live: its rules are in its kept record.
      if (!(e instanceof ApiError) || !e.body?.record) throw e;
      ruleset = (await api.record(target.table)).ruleset;
    }
    if (typeof ruleset === "string") {
      base = ruleset;
    } else {
      const { base: b, ...rest } = ruleset as Record<string, unknown>;
      base = String(b);
      overrides = rest;
    }
    back = navLink(`/t/${target.table}`, go, { class: "back" }, "← ", t("web-table"));
  }
  const preset = list.find((p) => p.id === base);
  if (!preset) throw new Error(t("web-error", { message: base }));
  const options = { ...preset.options, ...overrides };
  if ("deals" in overrides) delete options.target;
  const name = presetName(preset, base);
  document.title = `torite — ${name}`;
  const sheets = h("table", { class: "sheets" },
    h("thead", {}, h("tr", {}, h("th", {}, ""), LANGS.map((l) => h("th", { lang: l.code }, l.label)))),
    h("tbody", {}, KINDS.map((kind) =>
      h("tr", { "data-kind": kind },
        h("th", {}, t(`sheet-kicker-${kind}`)),
        LANGS.map((l) => h("td", {},
          h("a", { href: sheetUrl(target, kind, l.code, "html"), target: "_blank", rel: "noopener", class: "button small", "data-format": "html", "data-lang": l.code }, t("web-sheet-html")),
          " ",
          h("a", { href: sheetUrl(target, kind, l.code, "pdf"), download: "", class: "button small", "data-format": "pdf", "data-lang": l.code }, "PDF")))))));
  clear(root,
    h("section", { class: "rules-page" },
      h("header", { class: "table-head" }, back, h("h2", {}, name)),
      h("p", { class: "muted" }, t("web-players", { count: preset.players }),
        "table" in target && Object.keys(overrides).length ? h("span", { class: "badge" }, t("web-options")) : null),
      await rulesText(target),
      h("h3", {}, t("web-sheets")),
      h("p", { class: "muted" }, t("web-sheets-help")),
      sheets,
      h("h3", {}, t("web-rule-options")),
      optionTable(options, new Set(Object.keys(overrides))),
      "preset" in target
        ? h("nav", { class: "preset-list" }, h("h3", {}, t("web-rules-presets")),
            h("ul", {}, list.filter((p) => p.id !== base).map((p) => h("li", {}, navLink(`/rules/${p.id}`, go, { class: "preset-link" }, presetName(p, p.id))))))
        : null));
  return () => undefined;
}
