// The post-game analysis of a finished game (`POST`/`GET /api/tables/{id}/analysis`, the JSON
// of docs/ANALYSIS.md): an Analyse button on the history and replay pages (one player or
// every player), a progress line while the server works, then each player's summary per
// deal and, in the replay, the value of every legal card of the player to act as a bar on
// the card, the played and the best card marked.
import "./analysis.css";
import { errorText, jsonBody, refusal, request, withKey } from "./api";
import { cardLabel, suitName, suitSymbol } from "./cards";
import { clear, h, navLink } from "./dom";
import { t } from "./i18n";

type Go = (path: string) => void;

/** One action's value (`decisions[].actions[]`). */
export interface ActionValue {
  action: string;
  value: number;
  stderr: number;
}

/** One decision (`decisions[]`). */
export interface Decision {
  deal: number;
  index: number;
  trick: number;
  seat: number;
  chosen: string;
  best: string;
  loss: number;
  loss_stderr: number;
  verdict: "best" | "inaccuracy" | "mistake" | "blunder";
  method: string;
  worlds: number;
  actions: ActionValue[];
  exact: { actions: { action: string; value: number }[]; chosen: number | null; best: number } | null;
}

/** One seat's deal summed up (`seats[]`). */
export interface SeatDeal {
  deal: number;
  seat: number;
  decisions: number;
  loss: number;
  inaccuracies: number;
  mistakes: number;
  blunders: number;
  score: number | null;
  double_dummy: number | null;
}

/** The analysis (docs/ANALYSIS.md). */
export interface Analysis {
  ruleset: string;
  worlds: number;
  seed: number;
  thresholds: { inaccuracy: number; mistake: number; blunder: number };
  decisions: Decision[];
  seats: SeatDeal[];
}

/** Which seats: one, or every seat. */
type Selection = "all" | number;

/** The answer while the server works on it. */
interface Progress {
  status: "queued" | "running";
  done: number;
  total: number;
}

type Answer = { analysis: Analysis } | { progress: Progress } | null;

/** The selection last asked for at this table (kept for the replay). */
function savedSelection(id: string): Selection {
  const v = sessionStorage.getItem(`torite-analysis-${id}`);
  if (v === null || v === "all") return "all";
  const n = Number(v);
  return Number.isInteger(n) && n >= 0 ? n : "all";
}

function saveSelection(id: string, sel: Selection): void {
  sessionStorage.setItem(`torite-analysis-${id}`, String(sel));
}

/** Asks the server: `POST` starts the analysis if needed, `GET` only looks (null: never asked). */
async function ask(id: string, sel: Selection, method: "GET" | "POST"): Promise<Answer> {
  const path = `/api/tables/${id}/analysis`;
  const res =
    method === "GET"
      ? await request(withKey(id, `${path}?seat=${sel}`))
      : await request(withKey(id, path), { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ seat: sel }) });
  if (method === "GET" && res.status === 404) {
    const e = await refusal(res);
    if (e.code === "analysis-not-asked") return null;
    throw e;
  }
  if (!res.ok) throw await refusal(res);
  const body = (await jsonBody(res)) as Record<string, unknown>;
  if (res.status === 202) return { progress: body as unknown as Progress };
  return { analysis: body as unknown as Analysis };
}

/** Decimals for values: one where deal scores run to ten points or more, two below. */
function places(a: Analysis): number {
  return a.thresholds.blunder / 0.15 >= 10 ? 1 : 2;
}

/** A signed value with a true minus sign: `+1.4`, `−0.25` (−0 reads +0). */
export function signed(x: number, decimals: number): string {
  const text = Math.abs(x).toFixed(decimals);
  const zero = Number(text) === 0;
  return `${x < 0 && !zero ? "\u2212" : "+"}${text}`;
}

/** An action of a decision in words: a card as it is read, or the Lot, a pass, a call. */
export function actionText(action: string): string {
  if (action === "lot") return t("action-lot");
  if (action === "pass") return t("action-pass");
  if (action === "joker:win") return t("action-joker-win");
  if (action === "joker:lose") return t("action-joker-lose");
  if (action.startsWith("call:")) {
    const s = action.slice(5);
    return t("action-call", { suit: `${suitSymbol(s)} ${suitName(s)}` });
  }
  return cardLabel(action);
}

function verdictText(d: Decision): string {
  return t(d.verdict === "best" && d.best !== d.chosen ? "analyse-verdict-close" : `analyse-verdict-${d.verdict}`);
}

/** A player's deal summed up: "Aki: 3 mistakes, −2.10 points in deal 2". */
function summaryText(s: SeatDeal, a: Analysis, name: string): string {
  return t("web-analysis-summary", {
    name,
    deal: s.deal + 1,
    decisions: s.decisions,
    inaccuracies: s.inaccuracies,
    mistakes: s.mistakes,
    blunders: s.blunders,
    loss: signed(-s.loss, places(a)),
  });
}

function summaryList(a: Analysis, names: string[], deal: number | null): HTMLElement {
  const rows = a.seats.filter((s) => deal === null || s.deal === deal);
  return h("ul", { class: "analysis-summary" },
    rows.map((s) => h("li", {
      "data-deal": s.deal, "data-seat": s.seat, "data-mistakes": s.mistakes, "data-loss": s.loss,
      class: s.blunders ? "has-blunder" : s.mistakes ? "has-mistake" : "",
    }, summaryText(s, a, names[s.seat]))));
}

/**
 * The Analyse control (a player or everyone, the button and the progress line); `show` gets
 * the analysis once there is one. On its first display it looks for one already made.
 */
function control(id: string, names: string[], show: (a: Analysis | null) => void): HTMLElement {
  let sel = savedSelection(id);
  if (sel !== "all" && sel >= names.length) sel = "all";
  const status = h("p", { class: "analysis-status muted", "aria-live": "polite" });
  const button = h("button", { type: "button", class: "button primary analyse-button" }, t("web-analyse")) as HTMLButtonElement;
  const select = h("select", { class: "analysis-seat", "aria-label": t("web-analysis-who") },
    h("option", { value: "all" }, t("web-analysis-all")),
    names.map((n, s) => h("option", { value: s }, n))) as HTMLSelectElement;
  select.value = String(sel);
  let asking = 0;
  const follow = async (method: "GET" | "POST") => {
    const mine = ++asking;
    button.disabled = method === "POST";
    try {
      let answer = await ask(id, sel, method);
      while (answer && "progress" in answer) {
        if (mine !== asking || !status.isConnected) return;
        const p = answer.progress;
        status.textContent = p.status === "queued"
          ? t("web-analysis-queued")
          : t("web-analysis-running", { done: p.done, total: p.total });
        status.classList.add("running");
        button.disabled = true;
        await new Promise((r) => setTimeout(r, 500));
        answer = await ask(id, sel, "GET");
      }
      if (mine !== asking) return;
      status.classList.remove("running");
      status.textContent = answer ? t("web-analysis-done", { worlds: answer.analysis.worlds }) : "";
      show(answer ? answer.analysis : null);
    } catch (e) {
      if (mine !== asking) return;
      status.classList.remove("running");
      status.textContent = errorText(e);
    } finally {
      if (mine === asking) button.disabled = false;
    }
  };
  select.addEventListener("change", () => {
    sel = select.value === "all" ? "all" : Number(select.value);
    saveSelection(id, sel);
    status.textContent = "";
    show(null);
    void follow("GET");
  });
  button.addEventListener("click", () => {
    saveSelection(id, sel);
    void follow("POST");
  });
  void follow("GET");
  return h("div", { class: "analysis-control" },
    h("label", {}, t("web-analysis-who"), " ", select), button, status);
}

/** The history page's analysis: the control, then each player's summary of every deal. */
export function analysisPanel(id: string, names: string[], go: Go): HTMLElement {
  const results = h("div", { class: "analysis-results" });
  const show = (a: Analysis | null) => {
    if (!a) return clear(results);
    clear(results,
      summaryList(a, names, null),
      h("p", {}, navLink(`/t/${id}/replay`, go, { class: "button small analysis-replay" }, t("web-analysis-in-replay"))),
      h("p", { class: "muted" }, t("web-analysis-legend", { mistake: a.thresholds.mistake, blunder: a.thresholds.blunder })));
  };
  return h("section", { class: "analysis" },
    h("h3", {}, t("web-analysis")),
    h("p", { class: "muted" }, t("web-analysis-intro")),
    control(id, names, show), results);
}

/**
 * The replay's analysis: the control and, at each position, the decision of the player to act
 * (`decorate`, called after every render of the replay).
 */
export function replayAnalysis(id: string, names: string[], rerender: () => void): {
  panel: HTMLElement;
  decorate: (view: HTMLElement, deal: number, k: number) => void;
} {
  let analysis: Analysis | null = null;
  const here = h("div", { class: "analysis-here" });
  const panel = h("section", { class: "analysis replay-analysis" },
    h("h3", {}, t("web-analysis")),
    control(id, names, (a) => {
      analysis = a;
      rerender();
    }),
    here);
  const decorate = (view: HTMLElement, deal: number, k: number) => {
    const a = analysis;
    if (!a) return clear(here);
    const d = a.decisions.find((x) => x.deal === deal && x.index === k);
    const dp = places(a);
    const summary = summaryList(a, names, deal);
    if (!d) {
      return clear(here, h("p", { class: "muted analysis-none" }, t("web-analysis-none")), summary);
    }
    const values = d.actions.map((x) => x.value);
    const lo = Math.min(...values);
    const hi = Math.max(...values);
    const share = (v: number) => (hi > lo ? 0.1 + (0.9 * (v - lo)) / (hi - lo) : 1);
    const box = view.querySelector(`.replay-seat[data-seat="${d.seat}"]`);
    const others: HTMLElement[] = [];
    for (const x of d.actions) {
      const label = t("web-analysis-value", { action: actionText(x.action), value: signed(x.value, dp), stderr: x.stderr.toFixed(dp) });
      const marks = [x.action === d.chosen ? "played" : "", x.action === d.best ? "best" : ""].filter(Boolean);
      const bar = h("span", { class: `value-bar ${marks.join(" ")}`, title: label, "data-value": x.value },
        h("span", { class: "fill" }), h("span", { class: "value-text" }, signed(x.value, dp)));
      (bar.firstChild as HTMLElement).style.width = `${Math.round(share(x.value) * 100)}%`;
      const card = box?.querySelector<HTMLElement>(`.card[data-card="${x.action}"]`);
      if (card) {
        card.classList.add("analysed", ...marks);
        card.setAttribute("aria-label", `${card.getAttribute("aria-label") ?? ""} — ${label}`);
        card.append(bar);
      } else {
        others.push(h("li", { class: `analysis-action ${marks.join(" ")}`, "data-action": x.action }, actionText(x.action), " ", bar));
      }
    }
    const line = d.best === d.chosen
      ? t("web-analysis-decision-best", { name: names[d.seat], chosen: actionText(d.chosen), value: signed(values[d.actions.findIndex((x) => x.action === d.chosen)], dp), verdict: verdictText(d) })
      : t("web-analysis-decision", {
          name: names[d.seat],
          chosen: actionText(d.chosen),
          value: signed(d.actions.find((x) => x.action === d.chosen)?.value ?? 0, dp),
          best: actionText(d.best),
          bestValue: signed(d.actions.find((x) => x.action === d.best)?.value ?? 0, dp),
          loss: d.loss.toFixed(dp),
          verdict: verdictText(d),
        });
    const exact = d.exact
      ? t("web-analysis-exact", { chosen: signed(d.exact.chosen ?? 0, dp), best: signed(d.exact.best, dp) })
      : t("web-analysis-exact-unsolved");
    clear(here,
      h("p", { class: `analysis-decision verdict-${d.verdict}`, "data-verdict": d.verdict, "data-seat": d.seat }, line),
      h("p", { class: "muted" }, exact),
      others.length ? h("ul", { class: "analysis-actions" }, others) : null,
      h("p", { class: "muted analysis-key" }, t("web-analysis-key")),
      summary);
  };
  return { panel, decorate };
}
