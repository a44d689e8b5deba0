// A ruleset's page: a preset's (`/rules/{id}`) or a table's own, house rules included
// (`/t/{id}/rules`), with its printable sheets (rules, score cards, score sheet) in both
// languages, as HTML to print from the browser or as PDF. The server makes the sheets.
import { ApiError, api, presets, sheetUrl, type SheetKind } from "./api";
import { clear, h, navLink } from "./dom";
import { t } from "./i18n";
import { presetName } from "./lobby";

const KINDS: SheetKind[] = ["rules", "scores", "scorepad"];
const LANGS = [
  { code: "en", label: "English" },
  { code: "ja", label: "日本語" },
];

function optionValue(v: unknown): string {
  if (v === null) return "—";
  return typeof v === "string" ? v : JSON.stringify(v);
}

/** The options of a ruleset as a small table; `changed` names the house rules. */
function optionTable(options: Record<string, unknown>, changed: Set<string>): HTMLElement {
  return h("table", { class: "options-table" },
    h("tbody", {}, Object.entries(options).map(([k, v]) =>
      h("tr", { class: changed.has(k) ? "changed" : "" }, h("th", {}, h("code", {}, k)), h("td", {}, optionValue(v), changed.has(k) ? h("span", { class: "badge" }, t("web-house-rule")) : null)))));
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
      h("p", { class: "muted" }, t("web-players", { count: preset.players }), " · ", h("code", {}, base),
        "table" in target && Object.keys(overrides).length ? h("span", { class: "badge" }, t("web-options")) : null),
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
