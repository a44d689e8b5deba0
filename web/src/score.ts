// The scorekeeper for games played with real cards (docs/PROTOCOL.md, "Score sheets"): the
// create form at `/score/new`, a sheet at `/score/{id}` (entered with the write key this
// browser keeps), and its read-only view at `/score/{id}/view?key=…`, which follows the
// sheet live. Every score comes from the server (the rules in torite-core); the page only
// collects each deal's facts the way the paper method gives them.
import "./score.css";
import { errorText, refusal, request, type Preset } from "./api";
import { clear, h, nameEl } from "./dom";
import { lang, t } from "./i18n";

interface SheetDeal {
  number: number;
  dealer: number;
  tricks: number[] | null;
  points: number[] | null;
  lot: { declarers: number[]; winner: number | null } | null;
  draw: number | null;
  exempt: number[];
  scores: number[];
  totals: number[];
  rule: string;
  marks: (string | null)[] | null;
}

interface Sheet {
  id: string;
  version: number;
  write: boolean;
  name_en: string;
  name_ja: string;
  players: string[];
  facts: { tricks: number; card_points: [number, number] | null; lot: boolean; tricks_with_lot: boolean; marks: boolean; ticks: boolean; chips: boolean };
  deals: SheetDeal[];
  totals: number[];
  held: number;
  next_dealer: number;
  finished: boolean;
  winners: number[];
}

type Go = (path: string) => void;

/** A penalty total as the chips a club takes from the pile for it, in stacks of five. */
function chips(total: number): HTMLElement {
  const count = Math.max(0, total);
  const stacks: HTMLElement[] = [];
  for (let i = 0; i < count; i += 5) {
    stacks.push(h("span", { class: "chip-stack" }, Array.from({ length: Math.min(5, count - i) }, () => h("span", { class: "chip" }))));
  }
  const label = t("web-score-chips", { count });
  return h("span", { class: "score-chips", role: "img", "aria-label": label, title: label, "data-chips": count }, stacks);
}

const keyName = (id: string) => `torite-score-${id}`;

async function post(path: string, body: unknown): Promise<unknown> {
  const res = await request(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw await refusal(res);
  return res.json();
}

/** `/score/new`: the game and the players' names. */
export async function renderScoreNew(view: HTMLElement, go: Go): Promise<() => void> {
  const res = await request("/api/presets");
  if (!res.ok) throw await refusal(res);
  const presets = (await res.json()) as Preset[];
  const select = h("select", { id: "score-preset", name: "preset" },
    presets.map((p) => h("option", { value: p.id }, lang() === "ja" ? p.name_ja : p.name_en))) as HTMLSelectElement;
  const names = h("div", { class: "score-names" });
  const error = h("p", { class: "score-error", role: "alert", hidden: true });
  const drawNames = () => {
    const n = presets.find((p) => p.id === select.value)?.players ?? 4;
    const old = [...names.querySelectorAll("input")].map((i) => (i as HTMLInputElement).value);
    clear(names, Array.from({ length: n }, (_, i) =>
      h("label", {}, t("web-score-player", { number: i + 1 }),
        h("input", { type: "text", name: `player-${i}`, maxlength: 24, autocomplete: "off", value: old[i] ?? "" }))));
  };
  select.addEventListener("change", drawNames);
  select.value = "mini-misere-4";
  drawNames();
  const form = h("form", {
    id: "score-create",
    class: "score-form",
    onsubmit: async (e: Event) => {
      e.preventDefault();
      error.hidden = true;
      const players = [...names.querySelectorAll("input")].map((i) => (i as HTMLInputElement).value.trim());
      try {
        const made = (await post("/api/scoresheets", { ruleset: select.value, players })) as { id: string; key: string; view_key: string };
        localStorage.setItem(keyName(made.id), JSON.stringify({ key: made.key, view: made.view_key }));
        go(`/score/${made.id}`);
      } catch (err) {
        error.textContent = errorText(err);
        error.hidden = false;
      }
    },
  },
  h("label", {}, t("web-ruleset"), select),
  h("fieldset", {}, h("legend", {}, t("web-score-players")), names),
  error,
  h("button", { type: "submit" }, t("web-score-start")));
  clear(view, h("section", { class: "score" }, h("h2", {}, t("web-score-title")), h("p", { class: "score-hint" }, t("web-score-intro")), form));
  return () => undefined;
}

/** A number input for one player's figure. */
function numberInput(name: string, label: string): HTMLInputElement {
  return h("input", { type: "number", inputmode: "numeric", min: 0, step: 1, name, "aria-label": label, class: "score-number" }) as HTMLInputElement;
}

/** `/score/{id}` and `/score/{id}/view?key=…`. */
export async function renderScore(view: HTMLElement, id: string, readOnly: boolean, go: Go): Promise<() => void> {
  const kept = JSON.parse(localStorage.getItem(keyName(id)) ?? "null") as { key: string; view: string } | null;
  const key = readOnly ? new URLSearchParams(location.search).get("key") ?? "" : kept?.key ?? "";
  if (!readOnly && !kept) {
    clear(view, h("section", { class: "score" }, h("p", { class: "score-error" }, t("web-score-no-key"))));
    return () => undefined;
  }
  const get = async (): Promise<Sheet> => {
    const res = await request(`/api/scoresheets/${id}?key=${encodeURIComponent(key)}`);
    if (!res.ok) throw await refusal(res);
    return (await res.json()) as Sheet;
  };
  let sheet = await get();
  const section = h("section", { class: "score" });
  clear(view, section);
  let source: EventSource | null = null;
  let draw: number | null = null;
  let askDraw: number[] | null = null;

  const draw_ = () => {
    const n = sheet.players.length;
    const name = lang() === "ja" ? sheet.name_ja : sheet.name_en;
    document.title = `torite — ${name}`;
    const error = h("p", { class: "score-error", role: "alert", hidden: true });
    const fail = (e: unknown) => { error.textContent = errorText(e); error.hidden = false; };
    const change = async (path: string, body: Record<string, unknown>) => {
      try {
        sheet = (await post(path, { key, ...body })) as Sheet;
        draw = null;
        askDraw = null;
        draw_();
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (code === "scoresheet-draw") {
          askDraw = [];
          const names = String(((e as { body?: { args?: { players?: string } } }).body?.args?.players) ?? "").split(", ");
          sheet.players.forEach((p, i) => { if (names.includes(p)) askDraw!.push(i); });
          // The deal's answers stay as entered: only who drew the highest card is added.
          const kept = new Map<string, string | boolean>();
          section.querySelectorAll(".score-entry input").forEach((el) => {
            const i = el as HTMLInputElement;
            kept.set(i.name, i.type === "checkbox" ? i.checked : i.value);
          });
          const winnerWas = (section.querySelector("[name=lot-winner]") as HTMLSelectElement | null)?.value ?? "";
          draw_();
          section.querySelectorAll(".score-entry input").forEach((el) => {
            const i = el as HTMLInputElement;
            const v = kept.get(i.name);
            if (typeof v === "boolean") { i.checked = v; i.dispatchEvent(new Event("change")); } else if (v !== undefined) i.value = v;
          });
          const winner = section.querySelector("[name=lot-winner]") as HTMLSelectElement | null;
          if (winner) winner.value = winnerWas;
          const again = section.querySelector(".score-error") as HTMLElement | null;
          if (again) { again.textContent = errorText(e); again.hidden = false; }
          return;
        }
        fail(e);
      }
    };
    // The sheet: a row per deal, each player's score (and marks), the totals.
    const head = h("tr", {}, h("th", { scope: "col" }, "#"),
      sheet.players.map((p) => h("th", { scope: "col" }, nameEl(p))),
      sheet.write && !readOnly ? h("th", { class: "no-print" }, "") : null);
    const rows = sheet.deals.map((d) => h("tr", { class: "score-deal", "data-deal": d.number },
      h("th", { scope: "row" }, String(d.number)),
      d.scores.map((s, i) => h("td", { class: d.exempt.includes(i) ? "exempt" : "" },
        h("span", { class: "score-total", "data-seat": i }, String(d.totals[i])),
        h("span", { class: "score-delta" }, `${s > 0 ? "+" : ""}${s}`),
        d.marks?.[i] ? h("span", { class: "score-marks" }, d.marks[i]!) : null,
        d.exempt.includes(i) ? h("span", { class: "score-exempt" }, t("web-score-exempt")) : null,
        d.lot?.declarers.includes(i) ? h("span", { class: "score-lot" }, d.lot.winner === i ? t("web-score-lot-won") : t("web-score-lot-lost")) : null)),
      sheet.write && !readOnly ? h("td", { class: "no-print" },
        h("button", { type: "button", class: "small undo-deal", "data-deal": d.number, "aria-label": t("web-score-undo-deal", { number: d.number }),
          onclick: () => change(`/api/scoresheets/${id}/undo`, { deal: d.number }) }, "×")) : null));
    const table = h("table", { class: "score-sheet" }, h("thead", {}, head), h("tbody", {}, rows),
      h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, t("total")),
        sheet.totals.map((v, i) => h("td", {},
          h("span", { class: "score-final", "data-seat": i }, String(v)),
          sheet.facts.chips ? chips(v) : null)),
        sheet.write && !readOnly ? h("td", { class: "no-print" }) : null)));
    const status = sheet.finished
      ? h("p", { class: "score-status over" }, t("game-over"), " — ",
        t(sheet.winners.length === 1 ? "winner" : "winners", { seats: sheet.winners.map((s) => sheet.players[s]).join(", ") }))
      : h("p", { class: "score-status" }, t("web-score-next", { number: sheet.deals.length + 1, dealer: sheet.players[sheet.next_dealer] }),
        sheet.held ? ` — ${t("held-points", { count: sheet.held })}` : "");
    // The entry of the next deal.
    let entry: HTMLElement | null = null;
    if (sheet.write && !readOnly && !sheet.finished) {
      const f = sheet.facts;
      const declare = sheet.players.map((p, i) => h("input", { type: "checkbox", name: `declare-${i}`, "aria-label": p }) as HTMLInputElement);
      const winner = h("select", { name: "lot-winner" }) as HTMLSelectElement;
      const tricks = sheet.players.map((p, i) => numberInput(`tricks-${i}`, t("web-score-tricks-of", { name: p })));
      const points = sheet.players.map((p, i) => numberInput(`points-${i}`, t("web-score-points-of", { name: p })));
      const lotBox = f.lot ? h("fieldset", { class: "score-lot-entry" }, h("legend", {}, t("web-score-lot")),
        sheet.players.map((p, i) => h("label", { class: "check" }, declare[i], nameEl(p))),
        h("label", {}, t("web-score-lot-winner"), winner)) : null;
      const fixed = f.card_points && f.card_points[0] === f.card_points[1] ? f.card_points[0] : null;
      const offer = () => {
        // The last player's points, offered so that the total makes the deal's.
        if (fixed === null) return;
        const first = points.slice(0, n - 1).map((p) => p.value.trim());
        if (first.every((v) => v !== "")) {
          const rest = fixed - first.reduce((a, v) => a + Number(v), 0);
          points[n - 1].placeholder = rest >= 0 ? String(rest) : "";
          if (points[n - 1].dataset.offered === "1" || points[n - 1].value === "") {
            points[n - 1].value = rest >= 0 ? String(rest) : "";
            points[n - 1].dataset.offered = "1";
          }
        }
      };
      points.slice(0, n - 1).forEach((p) => p.addEventListener("input", offer));
      points[n - 1].addEventListener("input", () => { delete points[n - 1].dataset.offered; });
      // The Jass games tick who took no trick and who took every trick, as on paper.
      const noTrick = sheet.players.map((p, i) => h("input", { type: "checkbox", name: `no-trick-${i}`, "aria-label": t("web-score-no-trick-of", { name: p }) }) as HTMLInputElement);
      const everyTrick = sheet.players.map((p, i) => h("input", { type: "checkbox", name: `every-trick-${i}`, "aria-label": t("web-score-every-trick-of", { name: p }) }) as HTMLInputElement);
      everyTrick.forEach((c, i) => c.addEventListener("change", () => {
        if (c.checked) everyTrick.forEach((o, j) => { if (j !== i) o.checked = false; });
      }));
      const tricksRow = f.ticks
        ? h("div", { class: "score-row ticks" }, h("span", { class: "label" }, t("web-score-ticks")),
          sheet.players.map((p, i) => h("div", { class: "tick" }, h("span", { class: "who" }, p),
            h("label", { class: "check" }, noTrick[i], t("web-score-no-trick")),
            h("label", { class: "check" }, everyTrick[i], t("web-score-every-trick")))))
        : h("div", { class: "score-row tricks" }, h("span", { class: "label" }, t("web-score-tricks", { total: f.tricks })),
          sheet.players.map((p, i) => h("label", {}, h("span", { class: "who" }, p), tricks[i])));
      const pointsRow = f.card_points ? h("div", { class: "score-row points" },
        h("span", { class: "label" }, t("web-score-points", { total: f.card_points[0] === f.card_points[1] ? String(f.card_points[0]) : `${f.card_points[0]}–${f.card_points[1]}` })),
        sheet.players.map((p, i) => h("label", {}, h("span", { class: "who" }, p), points[i]))) : null;
      const drawSelect = askDraw ? h("select", { name: "draw", onchange: (e: Event) => { draw = Number((e.target as HTMLSelectElement).value); } },
        h("option", { value: "" }, "—"), askDraw.map((s) => h("option", { value: s }, sheet.players[s]))) as HTMLSelectElement : null;
      const sync = () => {
        const chosen = declare.map((c, i) => (c.checked ? i : -1)).filter((i) => i >= 0);
        const before = winner.value;
        clear(winner, h("option", { value: "" }, t("web-score-lot-failed")), chosen.map((i) => h("option", { value: i }, sheet.players[i])));
        winner.value = chosen.map(String).includes(before) ? before : "";
        winner.disabled = chosen.length === 0;
        tricksRow.hidden = chosen.length > 0 && !f.tricks_with_lot;
      };
      declare.forEach((c) => c.addEventListener("change", sync));
      sync();
      entry = h("form", {
        class: "score-entry no-print",
        onsubmit: (e: Event) => {
          e.preventDefault();
          const chosen = declare.map((c, i) => (c.checked ? i : -1)).filter((i) => i >= 0);
          const body: Record<string, unknown> = {};
          if (chosen.length) body.lot = { declarers: chosen, winner: winner.value === "" ? null : Number(winner.value) };
          if (!tricksRow.hidden && f.ticks) {
            body.no_trick = noTrick.map((c, i) => (c.checked ? i : -1)).filter((i) => i >= 0);
            const every = everyTrick.findIndex((c) => c.checked);
            body.every_trick = every >= 0 ? every : null;
          } else if (!tricksRow.hidden) {
            body.tricks = tricks.map((i) => (i.value.trim() === "" ? null : Number(i.value)));
          }
          if (pointsRow) body.points = points.map((i) => (i.value.trim() === "" ? null : Number(i.value)));
          if (draw !== null) body.draw = draw;
          void change(`/api/scoresheets/${id}/deals`, body);
        },
      },
      h("h3", {}, t("web-score-deal", { number: sheet.deals.length + 1 })),
      lotBox, tricksRow, pointsRow,
      drawSelect ? h("label", {}, t("web-score-draw"), drawSelect) : null,
      error,
      h("button", { type: "submit", class: "add-deal" }, t("web-score-add")));
    }
    const tools = h("div", { class: "score-tools no-print" },
      sheet.write && !readOnly && sheet.deals.length
        ? h("button", { type: "button", class: "undo-last", onclick: () => change(`/api/scoresheets/${id}/undo`, {}) }, t("web-score-undo"))
        : null,
      h("a", { class: "button print", href: `/api/scoresheets/${id}/sheet?key=${encodeURIComponent(key)}&lang=${lang()}`, target: "_blank", rel: "noopener" }, t("web-score-print")),
      h("a", { class: "button pdf", href: `/api/scoresheets/${id}/sheet?key=${encodeURIComponent(key)}&lang=${lang()}&format=pdf`, download: "" }, t("web-score-pdf")));
    const share = !readOnly && kept
      ? h("p", { class: "score-share no-print" }, t("web-score-share"), " ",
        h("a", { class: "view-link", href: `/score/${id}/view?key=${kept.view}`, target: "_blank", rel: "noopener" }, `${location.origin}/score/${id}/view?key=${kept.view}`))
      : readOnly ? h("p", { class: "score-share no-print" }, t("web-score-read-only")) : null;
    clear(section, h("h2", {}, name), h("p", { class: "score-players" }, sheet.players.join(" · ")),
      h("div", { class: "score-scroll" }, table), status, entry,
      sheet.write && !readOnly && sheet.finished ? error : null, tools, share);
    section.dataset.version = String(sheet.version);
  };
  draw_();
  if (readOnly) {
    source = new EventSource(`/api/scoresheets/${id}/events?key=${encodeURIComponent(key)}`);
    source.addEventListener("sheet", (e) => {
      sheet = JSON.parse((e as MessageEvent).data) as Sheet;
      draw_();
    });
  }
  void go;
  return () => source?.close();
}
