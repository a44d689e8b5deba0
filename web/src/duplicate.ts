// Duplicate nights (docs/PROTOCOL.md, "Duplicate series"): the create form at
// `/duplicate/new`, and a series' page at `/duplicate/{id}`, which shows its tables, their
// progress and, deal by deal, how each table scored the same cards. The host's page carries
// the host key in its fragment (`#key=…`, kept in this browser): it adds each table's link to
// share and the start of a table whose seats are taken.
import "./duplicate.css";
import { api, botName, errorText, refusal, request, saveKey, type BotLevel, type Preset } from "./api";
import { clear, h, nameEl, navLink } from "./dom";
import { lang, t } from "./i18n";

type Go = (path: string) => void;

interface SeriesSeat { kind: string; name: string; bot: string | null }

interface SeriesTable {
  number: number;
  id: string;
  status: "open" | "playing" | "finished" | "gone";
  deals_done: number;
  finished: boolean;
  seats: SeriesSeat[];
  link?: string;
  key?: string;
}

interface ComparedDeal {
  number: number;
  mean: number[];
  tables: { scores: number[]; diff: number[]; running: number[] }[];
}

interface Series {
  id: string;
  host: boolean;
  name_en: string;
  name_ja: string;
  players: number;
  deals: number;
  seed: number | null;
  lower_is_better: boolean;
  compared: number;
  finished: boolean;
  tables: SeriesTable[];
  comparison: ComparedDeal[];
  records: string;
}

/** The most deals and tables the server takes (`MAX_DEALS`, `MAX_TABLES`). */
const MAX_DEALS = 24;
const MAX_TABLES = 8;

const keyName = (id: string) => `torite-duplicate-${id}`;

/** The lobby's way to a duplicate night. */
export function duplicateLink(go: Go): HTMLElement {
  return h("p", { class: "lobby-duplicate" }, t("web-duplicate-lobby"), " ",
    navLink("/duplicate/new", go, { class: "duplicate-night" }, t("web-duplicate-link")));
}

/** `/duplicate/new`: the game, the number of deals and tables, and who sits in each seat. */
export async function renderDuplicateNew(view: HTMLElement, go: Go): Promise<() => void> {
  const [presets, levels] = await Promise.all([api.presets(), api.bots()]) as [Preset[], BotLevel[]];
  const select = h("select", { id: "duplicate-preset", name: "preset" },
    presets.map((p) => h("option", { value: p.id }, lang() === "ja" ? p.name_ja : p.name_en))) as HTMLSelectElement;
  const deals = h("input", { type: "number", id: "duplicate-deals", name: "deals", min: 1, max: MAX_DEALS, step: 1, value: 4, inputmode: "numeric" }) as HTMLInputElement;
  const tables = h("input", { type: "number", id: "duplicate-tables", name: "tables", min: 1, max: MAX_TABLES, step: 1, value: 2, inputmode: "numeric" }) as HTMLInputElement;
  const seats = h("div", { class: "duplicate-seats" });
  const error = h("p", { class: "duplicate-error", role: "alert", hidden: true });
  const drawSeats = () => {
    const n = presets.find((p) => p.id === select.value)?.players ?? 4;
    const old = [...seats.querySelectorAll("select")].map((s) => (s as HTMLSelectElement).value);
    clear(seats, Array.from({ length: n }, (_, i) => {
      const choice = h("select", { name: `seat-${i}` },
        h("option", { value: "person" }, t("web-duplicate-person")),
        levels.map((l) => h("option", { value: l.id }, t("web-duplicate-bot-level", { level: l.name })))) as HTMLSelectElement;
      choice.value = old[i] ?? (i === 0 ? "person" : levels[0]?.id ?? "person");
      return h("label", {}, t("web-duplicate-seat", { number: i + 1 }), choice);
    }));
  };
  select.addEventListener("change", drawSeats);
  select.value = "mini-misere-4";
  drawSeats();
  const form = h("form", {
    id: "duplicate-create",
    class: "duplicate-form",
    onsubmit: async (e: Event) => {
      e.preventDefault();
      error.hidden = true;
      const body = {
        ruleset: select.value,
        deals: Number(deals.value),
        tables: Number(tables.value),
        seats: [...seats.querySelectorAll("select")].map((s) => (s as HTMLSelectElement).value),
      };
      try {
        const res = await request("/api/series", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
        if (!res.ok) throw await refusal(res);
        const made = (await res.json()) as { id: string; key: string };
        localStorage.setItem(keyName(made.id), made.key);
        go(`/duplicate/${made.id}`);
      } catch (err) {
        error.textContent = errorText(err);
        error.hidden = false;
      }
    },
  },
  h("label", {}, t("web-ruleset"), select),
  h("div", { class: "duplicate-counts" },
    h("label", {}, t("web-duplicate-deals"), deals),
    h("label", {}, t("web-duplicate-tables"), tables)),
  h("fieldset", {}, h("legend", {}, t("web-duplicate-seats")), seats),
  error,
  h("button", { type: "submit" }, t("web-duplicate-create")));
  clear(view, h("section", { class: "duplicate" },
    h("h2", {}, t("web-duplicate-title")),
    h("p", { class: "duplicate-hint" }, t("web-duplicate-intro")),
    form));
  return () => undefined;
}

/** A figure of the comparison in the page's language, with its sign. */
function signed(x: number): string {
  return new Intl.NumberFormat(lang(), { maximumFractionDigits: 2, signDisplay: "exceptZero" }).format(x);
}

function plain(x: number): string {
  return new Intl.NumberFormat(lang(), { maximumFractionDigits: 2 }).format(x);
}

function seatName(seat: SeriesSeat | undefined, levels: BotLevel[]): HTMLElement {
  if (!seat || seat.kind === "empty") return h("span", { class: "duplicate-waiting" }, t("web-duplicate-waiting"));
  if (seat.kind === "bot") return h("span", { class: "duplicate-bot" }, botName(seat.bot ?? seat.name, levels));
  return nameEl(seat.name);
}

function statusText(table: SeriesTable, deals: number): string {
  switch (table.status) {
    case "open": return t("web-duplicate-status-open");
    case "playing": return t("web-duplicate-status-playing", { done: table.deals_done, deals });
    case "finished": return t("web-duplicate-status-finished");
    default: return t("web-duplicate-status-gone");
  }
}

/** The tables, each with its seats and progress; for the host, its link and start. */
function tablesPart(series: Series, hostKey: string | null, levels: BotLevel[], redraw: () => void): HTMLElement {
  return h("ol", { class: "duplicate-tables" }, series.tables.map((table) => {
    const seats = h("ul", { class: "duplicate-seat-list" }, Array.from({ length: series.players }, (_, s) =>
      h("li", {}, h("span", { class: "duplicate-seat-label" }, t("web-duplicate-seat", { number: s + 1 })), " ", seatName(table.seats[s], levels))));
    const parts: HTMLElement[] = [
      h("h4", {}, t("web-duplicate-table", { number: table.number })),
      h("p", { class: "duplicate-status", "data-status": table.status }, statusText(table, series.deals)),
      seats,
    ];
    if (hostKey && table.link && table.key) {
      const url = new URL(table.link, location.origin).href;
      parts.push(h("p", { class: "duplicate-link" },
        h("span", {}, t("web-duplicate-share")), " ",
        h("a", { href: table.link, class: "table-link", target: "_blank", rel: "noopener" }, url)));
      const full = table.seats.length === series.players && table.seats.every((s) => s.kind !== "empty");
      if (table.status === "open") {
        const error = h("p", { class: "duplicate-error", role: "alert", hidden: true });
        const start = h("button", {
          type: "button",
          class: "duplicate-start small",
          disabled: !full,
          onclick: async () => {
            try {
              saveKey(table.id, table.key!);
              await api.start(table.id, hostKey);
              redraw();
            } catch (err) {
              error.textContent = errorText(err);
              error.hidden = false;
            }
          },
        }, t("web-duplicate-start"));
        parts.push(h("p", {}, start, full ? "" : h("span", { class: "duplicate-hint" }, " ", t("web-duplicate-start-wait"))), error);
      }
    }
    return h("li", { class: "duplicate-table", "data-table": table.number }, parts);
  }));
}

/** One compared deal: per table, each seat's score and its difference from the mean. */
function dealPart(series: Series, deal: ComparedDeal): HTMLElement {
  const head = h("tr", {}, h("th", { scope: "col" }, t("web-duplicate-table-col")),
    Array.from({ length: series.players }, (_, s) => h("th", { scope: "col" }, t("web-duplicate-seat", { number: s + 1 }))));
  const rows = deal.tables.map((at, i) => h("tr", { class: "duplicate-row", "data-table": i + 1 },
    h("th", { scope: "row" }, t("web-duplicate-table", { number: i + 1 })),
    at.scores.map((score, s) => h("td", {},
      h("span", { class: "duplicate-score" }, plain(score)), " ",
      h("span", { class: "duplicate-diff", "data-diff": at.diff[s] }, `(${signed(at.diff[s])})`)))));
  const mean = h("tr", { class: "duplicate-mean" }, h("th", { scope: "row" }, t("web-duplicate-mean")),
    deal.mean.map((m) => h("td", {}, plain(m))));
  return h("section", { class: "duplicate-deal", "data-deal": deal.number },
    h("h4", {}, t("web-duplicate-deal", { number: deal.number })),
    h("div", { class: "duplicate-scroll" }, h("table", {}, h("thead", {}, head), h("tbody", {}, rows, mean))));
}

/** The running sum of each table's differences over the compared deals. */
function runningPart(series: Series): HTMLElement {
  const last = series.comparison[series.comparison.length - 1];
  const head = h("tr", {}, h("th", { scope: "col" }, t("web-duplicate-table-col")),
    Array.from({ length: series.players }, (_, s) => h("th", { scope: "col" }, t("web-duplicate-seat", { number: s + 1 }))));
  const rows = last.tables.map((at, i) => h("tr", { class: "duplicate-running-row", "data-table": i + 1 },
    h("th", { scope: "row" }, t("web-duplicate-table", { number: i + 1 })),
    at.running.map((x) => h("td", { "data-running": x }, signed(x)))));
  return h("section", { class: "duplicate-running" },
    h("h3", {}, t("web-duplicate-running", { count: series.compared })),
    h("div", { class: "duplicate-scroll" }, h("table", {}, h("thead", {}, head), h("tbody", {}, rows))));
}

/** `/duplicate/{id}` (`#key=…` the host key). */
export async function renderDuplicate(view: HTMLElement, id: string, _go: Go): Promise<() => void> {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get("key");
  if (fromHash) localStorage.setItem(keyName(id), fromHash);
  const hostKey = fromHash ?? localStorage.getItem(keyName(id));
  const levels = await api.bots();
  let timer: number | undefined;
  let gone = false;
  const load = async (): Promise<Series> => {
    const path = hostKey ? `/api/series/${id}?key=${encodeURIComponent(hostKey)}` : `/api/series/${id}`;
    const res = await request(path);
    if (!res.ok) throw await refusal(res);
    return (await res.json()) as Series;
  };
  const draw = (series: Series) => {
    const name = lang() === "ja" ? series.name_ja : series.name_en;
    const host = series.host ? hostKey : null;
    const parts: (HTMLElement | string)[] = [
      h("h2", {}, t("web-duplicate-page-title", { game: name })),
      h("p", { class: "duplicate-summary" }, t("web-duplicate-summary", { deals: series.deals, tables: series.tables.length })),
    ];
    if (host) {
      const page = new URL(`/duplicate/${id}`, location.origin).href;
      parts.push(h("div", { class: "duplicate-host" },
        h("p", {}, t("web-duplicate-host-hint")),
        h("p", { class: "duplicate-link" }, h("span", {}, t("web-duplicate-results-link")), " ",
          h("a", { href: `/duplicate/${id}`, class: "results-link" }, page))));
    }
    parts.push(h("h3", {}, t("web-duplicate-tables-title")), tablesPart(series, host, levels, () => void refresh()));
    parts.push(h("h3", {}, t("web-duplicate-comparison")));
    parts.push(h("p", { class: "duplicate-hint" }, series.lower_is_better ? t("web-duplicate-explain-penalty") : t("web-duplicate-explain")));
    if (series.comparison.length === 0) {
      parts.push(h("p", { class: "duplicate-none" }, t("web-duplicate-none")));
    } else {
      parts.push(...series.comparison.map((d) => dealPart(series, d)));
      parts.push(runningPart(series));
    }
    if (!series.finished && series.compared < series.deals) {
      parts.push(h("p", { class: "duplicate-pending" }, t("web-duplicate-pending", { number: series.compared + 1 })));
    }
    parts.push(h("p", {}, h("a", { href: series.records, class: "duplicate-records", download: `torite-series-${id}.json` }, t("web-duplicate-download"))));
    clear(view, h("section", { class: "duplicate", "data-compared": series.compared, "data-finished": series.finished ? "1" : "0" }, parts));
  };
  const refresh = async () => {
    window.clearTimeout(timer);
    try {
      const series = await load();
      if (gone) return;
      draw(series);
      if (!series.finished) timer = window.setTimeout(() => void refresh(), 2000);
    } catch (err) {
      if (gone) return;
      clear(view, h("section", { class: "duplicate" }, h("p", { class: "duplicate-error", role: "alert" }, errorText(err))));
    }
  };
  const series = await load();
  draw(series);
  if (!series.finished) timer = window.setTimeout(() => void refresh(), 2000);
  return () => {
    gone = true;
    window.clearTimeout(timer);
  };
}
