// A finished game: its history (`/t/{id}/history`: every deal's scores and the running
// totals, the record to download) and its replay (`/t/{id}/replay?deal=N&step=K`: every hand
// as dealt, card by card or trick by trick). The server replays the record with the rules and
// says what each action did (the trick's winner, trump, the Lot, the scores): the browser only
// counts the cards already played out of the hands.
import { analysisPanel, replayAnalysis } from "./analysis";
import { ApiError, api, botName, isBotSpec, presets, withKey, type Replay, type ReplayDeal, type ReplayStep } from "./api";
import { cardEl, cardLabel, suitName, suitSymbol } from "./cards";
import { clear, h, isolate, nameEl, navLink } from "./dom";
import { t } from "./i18n";
import { houseRuleText, presetName } from "./lobby";

type Go = (path: string) => void;

/** The replay, or a page saying why there is none (a game still being played). */
async function load(root: HTMLElement, id: string, go: Go): Promise<Replay | null> {
  try {
    return await api.replay(id);
  } catch (e) {
    if (e instanceof ApiError && e.status === 409) {
      clear(root, h("section", { class: "game-over not-over" },
        h("h2", {}, t("web-history-not-over")),
        h("p", {}, navLink(`/t/${id}`, go, { class: "button" }, "← ", t("web-table")))));
      return null;
    }
    throw e;
  }
}

async function gameName(r: Replay): Promise<string> {
  const list = await presets().catch(() => []);
  return presetName(list.find((p) => p.id === r.base), r.base);
}

function houseRules(r: Replay): HTMLElement | null {
  const entries = Object.entries(r.house_rules);
  if (!entries.length) return null;
  return h("p", { class: "muted house-rules" }, t("web-options"), ": ", entries.map(([k, v]) => houseRuleText(k, v)).join(", "));
}

/** Display names per seat; a name that several seats share (bots) gets its seat number. */
function nameParts(r: Replay): { name: string; suffix: string }[] {
  return r.players.map((p, s) => {
    if (!p) return { name: t("seat", { seat: s + 1 }), suffix: "" };
    return { name: p, suffix: r.players.filter((q) => q === p).length > 1 ? ` (${t("seat", { seat: s + 1 })})` : "" };
  });
}

/** Names per seat for sentences (isolated). */
function names(r: Replay): string[] {
  return nameParts(r).map((p) => isolate(p.name) + p.suffix);
}

/** Names per seat as elements (isolated, ellipsised). */
function labels(r: Replay): HTMLElement[] {
  return nameParts(r).map((p) => nameEl(p.name, p.suffix));
}

function winnersLine(r: Replay): HTMLElement {
  const n = names(r);
  return h("p", { class: "winners" }, t(r.winners.length > 1 ? "winners" : "winner", { seats: r.winners.map((s) => n[s]).join(", ") }));
}

function trumpText(trump: string | null, trumps: boolean): string | null {
  if (trump === "JK") return t("trump-joker");
  if (trump) return t("trump", { trump: `${suitSymbol(trump)} ${suitName(trump)}` });
  return trumps ? t("trump-none") : null;
}

/** A finished table's game, its name (which also titles the page) and its seats' names. */
async function open(root: HTMLElement, id: string, go: Go): Promise<{ r: Replay; name: string; seatNames: string[] } | null> {
  const r = await load(root, id, go);
  if (!r) return null;
  // A bot of a named level is recorded by the level's id: shown by its name in the reader's
  // language.
  const levels = await api.bots().catch(() => []);
  // A bot seated by its algorithm (`heuristic`, `ismcts:2000`) is called by what it is.
  r.players = r.players.map((p) => (levels.some((l) => l.id === p) || isBotSpec(p) ? botName(p, levels) : p));
  const name = await gameName(r);
  document.title = `torite — ${name}`;
  return { r, name, seatNames: names(r) };
}

export async function renderHistory(root: HTMLElement, id: string, go: Go): Promise<() => void> {
  const game = await open(root, id, go);
  if (!game) return () => undefined;
  const { r, name, seatNames } = game;
  const n = r.players.length;
  // Each deal's scoring rule is a column on a wide screen and a line under the deal's scores
  // on a phone (where a column more would not fit).
  const ruleOf = (d: ReplayDeal): (HTMLElement | string | null)[] => [
    t(`rule-${d.rule}`),
    d.lot ? h("div", { class: "muted" }, t("lot-declared", { seats: d.lot.declarers.map((s) => seatNames[s]).join(", ") }), " — ", t(d.lot.success ? "web-lot-success" : "web-lot-failed")) : null,
    d.draw !== null ? h("div", { class: "muted" }, t("web-draw", { seat: seatNames[d.draw] })) : null,
  ];
  const rows = r.deals.flatMap((d, i) => [
    h("tr", { "data-deal": i },
      h("th", {}, navLink(`/t/${id}/replay?deal=${i + 1}`, go, { class: "deal-link", title: t("web-replay-deal", { number: i + 1 }) }, String(i + 1))),
      d.scores.map((x, s) => h("td", { class: "score" }, h("span", { class: "points" }, x > 0 ? `+${x}` : String(x)), h("span", { class: "running" }, String(d.totals[s])))),
      h("td", { class: "rule" }, ruleOf(d))),
    h("tr", { class: "rule-row", "data-rule-of": i }, h("td", { colspan: n + 1 }, ruleOf(d))),
  ]);
  clear(root,
    h("section", { class: "history" },
      h("header", { class: "table-head" },
        navLink(`/t/${id}`, go, { class: "back" }, "← ", t("web-table")),
        h("h2", {}, t("web-history"), " — ", name),
        navLink(`/t/${id}/rules`, go, { class: "button small rules-link" }, t("web-rules"))),
      houseRules(r),
      winnersLine(r),
      h("div", { class: "actions" },
        navLink(`/t/${id}/replay`, go, { class: "button primary replay-link" }, t("web-replay")),
        h("a", { href: withKey(id, `/api/tables/${id}/record`), download: `torite-${id}.json`, class: "button record-link" }, t("web-record"))),
      h("div", { class: "scroll" },
        h("table", { class: "history-table" },
          h("thead", {}, h("tr", {}, h("th", {}, "#"), labels(r).map((p, s) => h("th", { "data-seat": s, class: "name-cell" }, p)), h("th", { class: "rule" }, t("web-scoring")))),
          h("tbody", {}, rows),
          h("tfoot", {}, h("tr", {}, h("th", {}, t("total")), r.totals.map((x, s) => h("th", { class: r.winners.includes(s) ? "win" : "", "data-seat": s }, String(x))), h("th", { class: "rule" }, ""))))),
      r.held ? h("p", { class: "muted" }, t("held-points", { count: r.held })) : null,
      analysisPanel(id, seatNames, go),
      h("p", { class: "muted" }, t("web-history-help", { count: n }))));
  return () => undefined;
}

function isCard(action: string): boolean {
  return action !== "lot" && action !== "pass" && !action.startsWith("call:") && !action.startsWith("joker:");
}

/** The three-player joker's saying (`joker:win`, `joker:lose`) in words. */
function saying(step: ReplayStep, name: (s: number) => string): string {
  return t(step.action === "joker:win" ? "says-joker-win" : "says-joker-lose", { seat: name(step.seat) });
}

/** What a step did, in words. */
function describe(step: ReplayStep, first: boolean, name: (s: number) => string): string {
  const seat = name(step.seat);
  let text: string;
  if (step.action === "lot") text = t("declares-lot", { seat });
  else if (step.action === "pass") text = t("passes", { seat });
  else if (step.action.startsWith("call:")) {
    const s = step.action.slice(5);
    text = t("calls-suit", { seat, suit: `${suitSymbol(s)} ${suitName(s)}` });
  } else if (step.action.startsWith("joker:")) text = saying(step, name);
  else text = t(first ? "leads-card" : "plays", { seat, card: cardLabel(step.action) });
  if (step.winner !== undefined) text += ` — ${t("trick-won-by", { seat: name(step.winner) })}`;
  return text;
}

export async function renderReplay(root: HTMLElement, id: string, go: Go): Promise<() => void> {
  const game = await open(root, id, go);
  if (!game) return () => undefined;
  const { r, name, seatNames } = game;
  const n = r.players.length;
  const seatName = (s: number) => seatNames[s];
  const seatLabel = (s: number) => {
    const p = nameParts(r)[s];
    return nameEl(p.name, p.suffix);
  };
  // Every position of the game: deal by deal, before the first action and after each one.
  const positions: { deal: number; k: number }[] = [];
  r.deals.forEach((d, i) => {
    for (let k = 0; k <= d.steps.length; k++) positions.push({ deal: i, k });
  });
  const params = new URLSearchParams(location.search);
  const wantDeal = Math.max(1, Math.min(r.deals.length, Number(params.get("deal")) || 1)) - 1;
  const wantStep = Math.max(0, Math.min(r.deals[wantDeal].steps.length, Number(params.get("step")) || 0));
  let pos = Math.max(0, positions.findIndex((p) => p.deal === wantDeal && p.k === wantStep));

  // A position that ends a trick (or a deal, or starts one): where trick steps stop.
  const isStop = (i: number): boolean => {
    const p = positions[i];
    const d = r.deals[p.deal];
    return p.k === 0 || p.k === d.steps.length || d.steps[p.k - 1].winner !== undefined;
  };
  const move = (to: number) => {
    pos = Math.max(0, Math.min(positions.length - 1, to));
    render();
  };
  const nextTrick = () => {
    let i = pos + 1;
    while (i < positions.length - 1 && !isStop(i)) i++;
    move(i);
  };
  const prevTrick = () => {
    let i = pos - 1;
    while (i > 0 && !isStop(i)) i--;
    move(i);
  };

  const view = h("section", { class: "replay" });
  const analysis = replayAnalysis(id, seatNames, () => render());
  const render = () => {
    const { deal: di, k } = positions[pos];
    const d: ReplayDeal = r.deals[di];
    const url = `/t/${id}/replay?deal=${di + 1}&step=${k}`;
    if (location.pathname + location.search !== url) history.replaceState(null, "", url);
    const done = d.steps.slice(0, k);
    const last = done[done.length - 1];
    // The hands as they were: the cards dealt, less those already played.
    const played = new Set(done.filter((s) => isCard(s.action)).map((s) => s.action));
    const hands = d.hands.map((hand) => hand.filter((c) => !played.has(c)));
    const toAct = last ? last.to_act : d.first;
    const trump = last ? last.trump : d.start_trump;
    const lot = last ? last.lot : { declarers: [], failed: [] };
    const tricksWon = last ? last.tricks_won : d.hands.map(() => 0);
    const points = last ? last.points : d.hands.map(() => 0);
    // The trick on the table: the one this step belongs to (complete, with its winner, when
    // this step completed it).
    const trickNo = last ? last.trick : 0;
    const trickSteps = done.filter((s) => s.trick === trickNo && isCard(s.action));
    const winner = last?.winner;
    // A suit named for the joker stays in view for the rest of its trick.
    const call = done.filter((s) => s.trick === trickNo && s.action.startsWith("call:")).pop();
    // So does the joker's saying, which completes its trick.
    const said = done.filter((s) => s.trick === trickNo && s.action.startsWith("joker:")).pop();
    const firstCardIndex = (s: ReplayStep) => trickSteps.indexOf(s) === 0;
    const over = k === d.steps.length;
    const info: (HTMLElement | null)[] = [
      h("span", { class: "deal-no" }, t("deal-header", { number: di + 1, dealer: seatName(d.dealer) })),
    ];
    const trumpLine = trumpText(trump, r.trumps);
    if (trumpLine) info.push(h("span", { class: trump && trump !== "JK" ? `suit-${trump}` : "" }, trumpLine));
    if (lot.declarers.length) info.push(h("span", { class: "lot-info" }, t("lot-declared", { seats: lot.declarers.map(seatName).join(", ") })));

    const seatBox = (s: number) => {
      const badges = [
        d.dealer === s ? h("span", { class: "badge dealer", title: t("web-dealer") }, "D") : null,
        toAct === s && !over ? h("span", { class: "badge to-act" }, t("web-to-act")) : null,
        lot.declarers.includes(s) ? h("span", { class: `badge lot ${lot.failed.includes(s) ? "failed" : ""}` }, t("web-lot-badge")) : null,
        winner === s ? h("span", { class: "badge winner" }, "★") : null,
      ];
      const stats = [h("span", { class: "tricks" }, `${t("tricks-won")} ${tricksWon[s]}`)];
      if (points.some((p) => p > 0) || d.points.some((p) => p > 0)) stats.push(h("span", {}, `${t("card-points")} ${points[s]}`));
      return h("div", { class: `seat-box replay-seat ${toAct === s && !over ? "acting" : ""}`, "data-seat": s },
        h("div", { class: "seat-head" }, h("strong", { class: "seat-title" }, seatLabel(s)), ...badges),
        h("div", { class: "stats" }, stats),
        h("div", { class: "hand small-hand" }, hands[s].map((c) => cardEl(c, { small: true }))));
    };

    const trickLabel = last
      ? winner !== undefined
        ? `${t("trick", { number: trickNo + 1 })} — ${t("trick-won-by", { seat: seatName(winner) })}`
        : t("trick", { number: trickNo + 1 })
      : t("leader", { seat: seatName(d.first) });
    const trick = h("div", { class: `trick ${winner !== undefined ? "complete" : ""}`, "data-trick": trickNo },
      h("div", { class: "label" }, trickLabel),
      call ? h("div", { class: "label call" }, t("calls-suit", { seat: seatName(call.seat), suit: `${suitSymbol(call.action.slice(5))} ${suitName(call.action.slice(5))}` })) : null,
      said ? h("div", { class: "label joker-said" }, saying(said, seatName)) : null,
      h("div", { class: "played" }, trickSteps.map((s) =>
        h("figure", { class: winner === s.seat ? "winning" : "", "data-seat": s.seat }, cardEl(s.action), h("figcaption", {}, seatLabel(s.seat))))));

    const summary = over
      ? h("div", { class: "deal-end" },
          h("h3", {}, t("deal-summary", { number: di + 1 })),
          h("p", {}, t("rule-applied", { rule: t(`rule-${d.rule}`) })),
          d.lot ? h("p", {}, t("lot-declared", { seats: d.lot.declarers.map(seatName).join(", ") }), " — ", t(d.lot.success ? "web-lot-success" : "web-lot-failed")) : null,
          d.draw !== null ? h("p", {}, t("web-draw", { seat: seatName(d.draw) })) : null,
          h("div", { class: "scroll" }, h("table", { class: "deal-scores" },
            h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, t("tricks-won")), h("th", {}, t("card-points")), h("th", {}, t("score")), h("th", {}, t("total")))),
            h("tbody", {}, d.scores.map((_, s) => h("tr", { "data-seat": s },
              h("th", { class: "name-cell" }, seatLabel(s)), h("td", {}, String(d.tricks_won[s])), h("td", {}, String(d.points[s])),
              h("td", { class: "score" }, String(d.scores[s])), h("td", { class: "total" }, String(d.totals[s]))))))),
          di === r.deals.length - 1 ? h("div", { class: "final" }, h("h3", {}, t("game-over")), winnersLine(r)) : null)
      : null;

    const nav = (cls: string, label: string, symbol: string, to: () => void, disabled: boolean) =>
      h("button", { type: "button", class: `nav ${cls}`, "data-nav": cls, title: label, "aria-label": label, disabled, onclick: to }, symbol);
    const atStart = pos === 0;
    const atEnd = pos === positions.length - 1;
    clear(view,
      h("header", { class: "table-head" },
        navLink(`/t/${id}/history`, go, { class: "back" }, "← ", t("web-history")),
        h("h2", {}, name)),
      h("p", { class: "info" }, info),
      h("div", { class: "replay-nav", role: "toolbar", "aria-label": t("web-replay") },
        nav("first", t("web-first"), "|◀", () => move(0), atStart),
        nav("prev-trick", t("web-prev-trick"), "◀◀", prevTrick, atStart),
        nav("prev", t("web-prev-card"), "◀", () => move(pos - 1), atStart),
        nav("next", t("web-next-card"), "▶", () => move(pos + 1), atEnd),
        nav("next-trick", t("web-next-trick"), "▶▶", nextTrick, atEnd),
        nav("last", t("web-last"), "▶|", () => move(positions.length - 1), atEnd)),
      h("p", { class: "position muted" }, t("web-replay-position", { deal: di + 1, deals: r.deals.length, step: k, steps: d.steps.length })),
      h("p", { class: "caption", "aria-live": "polite" }, last ? describe(last, firstCardIndex(last), seatName) : t("web-replay-dealt")),
      trick,
      h("div", { class: "seats replay-seats" }, [...Array(n).keys()].map(seatBox)),
      analysis.panel,
      summary,
      h("p", { class: "muted keys" }, t("web-replay-keys")));
    analysis.decorate(view, di, k);
  };

  const onKey = (e: KeyboardEvent) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target as HTMLElement | null;
    if (target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
    const keys: Record<string, () => void> = {
      ArrowRight: e.shiftKey ? nextTrick : () => move(pos + 1),
      ArrowLeft: e.shiftKey ? prevTrick : () => move(pos - 1),
      ArrowDown: nextTrick,
      ArrowUp: prevTrick,
      PageDown: nextTrick,
      PageUp: prevTrick,
      Home: () => move(0),
      End: () => move(positions.length - 1),
    };
    const f = keys[e.key];
    if (!f) return;
    e.preventDefault();
    f();
  };
  document.addEventListener("keydown", onKey);
  clear(root, view);
  render();
  return () => document.removeEventListener("keydown", onKey);
}
