// Messages from the same Fluent catalogs as the terminal (served at /api/i18n/{lang}).
import { FluentBundle, FluentResource, type FluentVariable } from "@fluent/bundle";

export type Lang = "en" | "ja";

let bundle: FluentBundle | null = null;
let current: Lang = "en";

export function lang(): Lang {
  return current;
}

export function preferredLang(): Lang {
  const saved = localStorage.getItem("torite-lang");
  if (saved === "en" || saved === "ja") return saved;
  return navigator.language.toLowerCase().startsWith("ja") ? "ja" : "en";
}

const bundles = new Map<Lang, Promise<FluentBundle>>();

/** A language's catalog, fetched once (a failed fetch is tried again next time). */
function fetchBundle(l: Lang): Promise<FluentBundle> {
  let p = bundles.get(l);
  if (!p) {
    p = (async () => {
      const res = await fetch(`/api/i18n/${l}`);
      if (!res.ok) throw new Error(`catalog ${l}: ${res.status}`);
      const b = new FluentBundle(l, { useIsolating: false });
      const errors = b.addResource(new FluentResource(await res.text()));
      if (errors.length) console.warn("catalog", l, errors);
      return b;
    })();
    p.catch(() => bundles.delete(l));
    bundles.set(l, p);
  }
  return p;
}

/**
 * Fetches a language's catalog ahead of need, so that switching to it works while the server
 * cannot be reached.
 */
export function preloadLang(l: Lang): void {
  fetchBundle(l).catch(() => undefined);
}

export async function loadLang(l: Lang): Promise<void> {
  bundle = await fetchBundle(l);
  current = l;
  localStorage.setItem("torite-lang", l);
  document.documentElement.lang = l;
}

/** A message by key; the key itself if it is missing. */
export function t(key: string, args?: Record<string, FluentVariable>): string {
  const msg = bundle?.getMessage(key);
  if (!msg?.value || !bundle) return key;
  return bundle.formatPattern(msg.value, args ?? null);
}

export function has(key: string): boolean {
  return bundle?.hasMessage(key) ?? false;
}
