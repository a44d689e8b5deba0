// A table: seats, the trick, the hand (select, then confirm), questions, scores and summaries.
// Everything shown comes from the server's state message for this seat: the browser never
// decides what is legal.
import { api, presets, savedName, saveName, saveToken, savedToken, tokenKey, type Preset, type TableSummary } from "./api";
import { cardEl, cardLabel, suitName, suitSymbol } from "./cards";
import { clear, h, navLink } from "./dom";
import { t } from "./i18n";
import { presetName } from "./lobby";

interface Trick {
  leader: number;
  cards: string[];
  winner: number;
}

interface Result {
  deal: number;
  dealer: number;
  tricks: number[];
  points: number[];
  lot: { declarers: number[]; success: boolean } | null;
  scores: number[];
  totals: number[];
  rule: string;
  draw: number | null;
}

export interface State {
  type: "state";
  version: number;
  seat: number | null;
  table: TableSummary;
  ruleset: string;
  players: number;
  started: boolean;
  deal: number | null;
  totals: number[];
  held: number;
  results: Result[];
  finished: boolean;
  winners: number[];
  /** When the move timer of the seat to act runs out (ms since the epoch, server clock). */
  deadline?: number;
  dealer?: number;
  phase?: "lot" | "play" | "call" | "over";
  to_act?: number | null;
  leader?: number;
  trick?: { seat: number; card: string }[];
  winning?: number | null;
  led?: string | null;
  hand_sizes?: number[];
  trump?: string | null;
  lot?: { declarers: number[]; failed: number[] };
  tricks_won?: number[];
  card_points?: number[];
  tricks_completed?: number;
  last_trick?: Trick | null;
  hand?: string[];
  legal?: string[];
}

interface Welcome {
  type: "welcome";
  seat: number | null;
  host: boolean;
}

export function renderTable(root: HTMLElement, id: string, go: (path: string) => void): () => void {
  let state: State | null = null;
  let welcome: Welcome = { type: "welcome", seat: null, host: false };
  let socket: WebSocket | null = null;
  let closed = false;
  let retry = 500;
  let selected: string | null = null;
  let shownResults = -1;
  let summary: Result | null = null;
  let toast = "";
  let toastTimer = 0;
  let connected = false;
  // The server's clock less ours, for counting down move timers.
  let clockOffset = 0;
  const t0 = Date.now();
  fetch("/api/time")
    .then((res) => res.json())
    .then((body: { now: number }) => {
      const t1 = Date.now();
      clockOffset = body.now - (t0 + t1) / 2;
      tick();
    })
    .catch(() => undefined);
  let preset: Preset | undefined;
  let bots: string[] = ["heuristic"];
  presets().then((list) => {
    preset = list.find((p) => p.id === state?.ruleset);
    render();
  });
  api.bots().then((b) => (bots = b)).catch(() => undefined);

  const showError = (message: string) => {
    toast = message;
    window.clearTimeout(toastTimer);
    toastTimer = window.setTimeout(() => {
      toast = "";
      render();
    }, 5000);
    render();
  };

  const connect = () => {
    const token = savedToken(id);
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/${id}${token ? `?token=${encodeURIComponent(token)}` : ""}`);
    socket = ws;
    ws.onopen = () => {
      connected = true;
      retry = 500;
      render();
    };
    ws.onmessage = (ev) => {
      const msg = JSON.parse(String(ev.data));
      if (msg.type === "welcome") {
        welcome = msg as Welcome;
      } else if (msg.type === "state") {
        const s = msg as State;
        if (shownResults >= 0 && s.results.length > shownResults) {
          summary = s.results[s.results.length - 1];
        }
        shownResults = s.results.length;
        state = s;
        if (!preset) {
          presets().then((list) => {
            preset = list.find((p) => p.id === s.ruleset);
            render();
          });
        }
        if (selected && !(s.legal ?? []).includes(selected)) selected = null;
        render();
      } else if (msg.type === "error") {
        showError(msg.message);
      }
    };
    let opened = false;
    ws.addEventListener("open", () => (opened = true));
    ws.onclose = async () => {
      connected = false;
      if (closed) return;
      if (!opened) {
        // Refused before opening: a table that does not exist, or a finished game whose
        // table is no longer live (only its record is kept).
        const res = await fetch(`/api/tables/${id}`).catch(() => null);
        if (res && res.status === 404) {
          const body = await res.json().catch(() => ({}));
          closed = true;
          clear(root, h("section", { class: "game-over" },
            h("h2", {}, body.record ? t("game-over") : t("web-error", { message: body.error ?? id })),
            body.record ? navLink(`/t/${id}/history`, go, { class: "button history-link" }, t("web-history")) : null,
            body.record ? h("a", { href: body.record, download: `torite-${id}.json`, class: "button" }, t("web-record")) : null,
            h("p", {}, h("a", { href: "/", onclick: (e: Event) => { e.preventDefault(); go("/"); } }, "← ", t("web-lobby")))));
          return;
        }
        if (res && res.ok && savedToken(id)) {
          // The table is there but refused our token (its seat was given to a bot): watch.
          localStorage.removeItem(tokenKey(id));
        }
      }
      render();
      window.setTimeout(() => !closed && connect(), retry);
      retry = Math.min(retry * 2, 5000);
    };
  };

  const send = (action: string) => {
    if (!state || !socket || socket.readyState !== WebSocket.OPEN) return;
    socket.send(JSON.stringify({ type: "act", action, version: state.version }));
    selected = null;
  };

  const seatName = (s: number): string => {
    if (!state) return t("seat", { seat: s });
    const mine = s === welcome.seat;
    const seats = state.table.seats;
    const given = seats[s]?.name;
    // A name that several seats share (bots of one kind) gets its seat number, as in the history.
    const shared = !!given && seats.filter((x) => x?.name === given).length > 1;
    const name = !given ? t("seat", { seat: s }) : shared ? `${given} (${t("seat", { seat: s })})` : given;
    return mine ? `${name} (${t("seat-you")})` : name;
  };

  const hostAction = async (f: () => Promise<unknown>) => {
    try {
      await f();
    } catch (e) {
      showError((e as Error).message);
    }
  };

  const seatBox = (s: number): HTMLElement => {
    const st = state!;
    const info = st.table.seats[s];
    const token = savedToken(id);
    const toAct = st.to_act === s && !st.finished;
    const badges = [
      st.dealer === s ? h("span", { class: "badge dealer", title: t("web-dealer") }, "D") : null,
      toAct ? h("span", { class: "badge to-act" }, t("web-to-act")) : null,
      st.lot?.declarers.includes(s) ? h("span", { class: `badge lot ${st.lot.failed.includes(s) ? "failed" : ""}` }, t("web-lot-badge")) : null,
    ];
    const stats: (HTMLElement | null)[] = [];
    if (st.hand_sizes) stats.push(h("span", {}, `${st.hand_sizes[s]} ${t("web-cards")}`));
    if (st.tricks_won) stats.push(h("span", {}, `${t("tricks-won")} ${st.tricks_won[s]}`));
    if (st.card_points && st.card_points.some((p) => p > 0)) stats.push(h("span", {}, `${t("card-points")} ${st.card_points[s]}`));
    stats.push(h("span", {}, `${t("total")} ${st.totals[s] ?? 0}`));
    let control: HTMLElement | null = null;
    if (info.kind === "empty" && !st.started) {
      if (welcome.host && token) {
        const pick = h("select", { class: "bot-pick" }, bots.map((b) => h("option", { value: b, selected: b === "heuristic" }, b))) as HTMLSelectElement;
        control = h("div", { class: "controls" }, pick,
          h("button", { type: "button", class: "add-bot", "data-seat": s, onclick: () => hostAction(() => api.bot(id, s, pick.value, token)) }, t("web-add-bot")));
      } else if (welcome.seat === null) {
        control = h("button", {
          type: "button", class: "join", "data-seat": s,
          onclick: async () => {
            const name = savedName() || prompt(t("web-your-name")) || "";
            if (!name.trim()) return;
            try {
              const j = await api.join(id, s, name.trim());
              saveName(name.trim());
              saveToken(id, j.token);
              socket?.close();
            } catch (e) {
              showError((e as Error).message);
            }
          },
        }, t("web-join"));
      }
    } else if (info.kind === "human" && welcome.host && token && s !== welcome.seat && !st.finished) {
      control = h("button", { type: "button", class: "replace small", "data-seat": s, onclick: () => hostAction(() => api.bot(id, s, "heuristic", token)) }, t("web-replace-bot"));
    }
    const kind = info.kind === "bot" ? t("web-bot") : info.kind === "human" ? (info.connected ? t("web-online") : t("web-away")) : t("web-empty-seat");
    return h("div", { class: `seat-box ${toAct ? "acting" : ""} ${s === welcome.seat ? "me" : ""} kind-${info.kind}`, "data-seat": s },
      h("div", { class: "seat-head" }, h("strong", {}, info.kind === "empty" ? t("seat", { seat: s }) : seatName(s)), ...badges),
      h("div", { class: `seat-kind ${info.connected ? "online" : ""}` }, kind),
      st.started ? h("div", { class: "stats" }, stats) : null,
      control);
  };

  const trickView = (): HTMLElement => {
    const st = state!;
    const trick = st.trick ?? [];
    const last = st.last_trick;
    if (trick.length) {
      return h("div", { class: "trick", "aria-label": t("trick", { number: (st.tricks_completed ?? 0) + 1 }) },
        h("div", { class: "label" }, t("trick", { number: (st.tricks_completed ?? 0) + 1 })),
        h("div", { class: "played" }, trick.map((p) => h("figure", { class: st.winning === p.seat ? "winning" : "" }, cardEl(p.card), h("figcaption", {}, seatName(p.seat))))),
        last
          ? h("details", { class: "last-trick" },
              h("summary", {}, t("last-trick"), " — ", t("trick-won-by", { seat: seatName(last.winner) })),
              h("div", { class: "played" }, last.cards.map((c, i) => cardEl(c, { small: true, selected: (last.leader + i) % st.players === last.winner }))))
          : null);
    }
    if (last) {
      return h("div", { class: "trick last" },
        h("div", { class: "label" }, t("last-trick"), " — ", t("trick-won-by", { seat: seatName(last.winner) })),
        h("div", { class: "played" }, last.cards.map((c, i) => {
          const seat = (last.leader + i) % st.players;
          return h("figure", { class: seat === last.winner ? "winning" : "" }, cardEl(c), h("figcaption", {}, seatName(seat)));
        })));
    }
    return h("div", { class: "trick empty" }, st.leader !== undefined && st.phase !== "over" ? t("leader", { seat: seatName(st.leader) }) : "");
  };

  // The move timer: one line for everyone, highlighted when it is this seat's turn; its
  // seconds are counted down in place (see tick) without redrawing the table.
  const countdown = (): HTMLElement | null => {
    const st = state!;
    if (!st.deadline || st.finished || st.to_act === null || st.to_act === undefined) return null;
    const mine = st.to_act === welcome.seat;
    return h("p", { class: "timer-line" },
      h("span", { class: `countdown ${mine ? "mine" : ""}`, "data-deadline": st.deadline, "data-seat": st.to_act, "data-mine": mine ? "1" : "" }));
  };

  const tick = () => {
    root.querySelectorAll<HTMLElement>(".countdown[data-deadline]").forEach((el) => {
      const left = Math.max(0, Math.ceil((Number(el.dataset.deadline) - (Date.now() + clockOffset)) / 1000));
      const text = el.dataset.mine
        ? t("web-timer-mine", { seconds: left })
        : t("web-timer-left", { seat: seatName(Number(el.dataset.seat)), seconds: left });
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle("low", left <= 5);
    });
  };
  const ticker = window.setInterval(tick, 250);

  const prompt_ = (): HTMLElement | null => {
    const st = state!;
    if (!st.started) return h("p", { class: "prompt" }, t("web-waiting-start"));
    if (st.finished) return null;
    const legal = st.legal ?? [];
    if (welcome.seat === null) return h("p", { class: "prompt" }, t("web-watching"));
    if (!legal.length) {
      return st.to_act !== null && st.to_act !== undefined ? h("p", { class: "prompt muted" }, t("web-waiting", { seat: seatName(st.to_act) })) : null;
    }
    const parts: HTMLElement[] = [];
    if (st.phase === "lot") {
      parts.push(h("p", { class: "prompt" }, t("lot-question")),
        h("div", { class: "actions" },
          h("button", { type: "button", class: "primary", "data-action": "lot", onclick: () => send("lot") }, t("action-lot")),
          h("button", { type: "button", "data-action": "pass", onclick: () => send("pass") }, t("action-pass"))));
    } else if (st.phase === "call") {
      parts.push(h("p", { class: "prompt" }, t("call-question")),
        h("div", { class: "actions" }, legal.filter((a) => a.startsWith("call:")).map((a) => {
          const s = a.slice(5);
          return h("button", { type: "button", class: `suit-${s}`, "data-action": a, onclick: () => send(a) }, `${suitSymbol(s)} ${suitName(s)}`);
        })));
    } else {
      parts.push(h("p", { class: "prompt" }, t("your-turn")));
      if (legal.includes("lot")) {
        parts.push(h("div", { class: "actions" }, h("span", { class: "muted" }, t("lot-question-first-card")),
          h("button", { type: "button", "data-action": "lot", onclick: () => send("lot") }, t("action-lot"))));
      }
    }
    return h("div", { class: "ask" }, parts);
  };

  const handView = (): HTMLElement | null => {
    const st = state!;
    if (!st.hand) return null;
    const legal = new Set(st.legal ?? []);
    const cards = st.hand.map((c) =>
      cardEl(c, {
        selected: c === selected,
        disabled: !legal.has(c),
        onClick: () => {
          if (selected === c) send(c);
          else selected = c;
          render();
        },
      }),
    );
    const confirm = selected
      ? h("button", { type: "button", class: "primary confirm", "data-action": selected, onclick: () => selected && send(selected) }, t("web-play-card", { card: cardLabel(selected) }))
      : null;
    return h("section", { class: "hand-area" }, h("div", { class: "label" }, t("hand")), h("div", { class: "hand" }, cards), confirm);
  };

  const scoreTable = (): HTMLElement | null => {
    const st = state!;
    if (!st.results.length) return null;
    return h("details", { class: "scores", open: st.finished },
      h("summary", {}, t("score")),
      h("table", {},
        h("thead", {}, h("tr", {}, h("th", {}, "#"), st.table.seats.map((_, s) => h("th", {}, seatName(s))))),
        h("tbody", {}, st.results.map((r) => h("tr", {}, h("td", {}, String(r.deal + 1)), r.scores.map((x) => h("td", {}, String(x)))))),
        h("tfoot", {}, h("tr", {}, h("th", {}, t("total")), st.totals.map((x) => h("th", {}, String(x)))))),
      st.held ? h("p", { class: "muted" }, t("held-points", { count: st.held })) : null);
  };

  const summaryDialog = (): HTMLElement | null => {
    if (!summary || !state) return null;
    const r = summary;
    const st = state;
    const rule = `rule-${r.rule}`;
    return h("div", { class: "modal", role: "dialog", "aria-modal": "true" },
      h("div", { class: "modal-box" },
        h("h3", {}, t("deal-summary", { number: r.deal + 1 })),
        h("p", {}, t("rule-applied", { rule: t(rule) })),
        r.lot ? h("p", {}, t("lot-declared", { seats: r.lot.declarers.map(seatName).join(", ") })) : null,
        h("table", {},
          h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, t("tricks-won")), h("th", {}, t("card-points")), h("th", {}, t("score")), h("th", {}, t("total")))),
          h("tbody", {}, st.table.seats.map((_, s) => h("tr", {}, h("th", {}, seatName(s)), h("td", {}, String(r.tricks[s])), h("td", {}, String(r.points[s])), h("td", {}, String(r.scores[s])), h("td", {}, String(r.totals[s])))))),
        h("button", { type: "button", class: "primary close", onclick: () => { summary = null; render(); } }, t("web-close"))));
  };

  const render = () => {
    if (!state) {
      clear(root, h("p", { class: "muted" }, connected ? "…" : t("web-reconnecting")));
      return;
    }
    const st = state;
    const name = presetName(preset, st.ruleset);
    const token = savedToken(id);
    const order = [...Array(st.players).keys()];
    if (welcome.seat !== null) {
      // Start from the seat after mine, so that mine comes last, next to my hand.
      const me = welcome.seat;
      order.sort((a, b) => ((a - me - 1 + st.players) % st.players) - ((b - me - 1 + st.players) % st.players));
    }
    const info: (HTMLElement | string | null)[] = [];
    if (st.deal !== null && st.dealer !== undefined) {
      info.push(h("span", {}, t("deal-header", { number: st.deal + 1, dealer: seatName(st.dealer) })));
      if (st.trump === "JK") info.push(h("span", {}, t("trump-joker")));
      else if (st.trump) info.push(h("span", { class: `suit-${st.trump}` }, t("trump", { trump: `${suitSymbol(st.trump)} ${suitName(st.trump)}` })));
      else if (preset && "follow" in preset.options) info.push(h("span", {}, t("trump-none")));
      if (st.lot && st.lot.declarers.length) info.push(h("span", {}, t("lot-declared", { seats: st.lot.declarers.map(seatName).join(", ") })));
    }
    if (st.table.timer) info.push(h("span", { class: "muted" }, t("web-timer-info", { seconds: st.table.timer })));
    const gameOver = st.finished
      ? h("section", { class: "game-over" },
          h("h2", {}, t("game-over")),
          h("p", {}, t(st.winners.length > 1 ? "winners" : "winner", { seats: st.winners.map(seatName).join(", ") })),
          h("div", { class: "actions" },
            navLink(`/t/${id}/history`, go, { class: "button primary history-link" }, t("web-history")),
            navLink(`/t/${id}/replay`, go, { class: "button replay-link" }, t("web-replay")),
            h("a", { href: `/api/tables/${id}/record`, download: `torite-${id}.json`, class: "button" }, t("web-record"))))
      : null;
    clear(
      root,
      h("section", { class: "table-view" },
        h("header", { class: "table-head" },
          h("a", { href: "/", class: "back", onclick: (e: Event) => { e.preventDefault(); go("/"); } }, "← ", t("web-lobby")),
          h("h2", {}, name),
          navLink(`/t/${id}/rules`, go, { class: "button small rules-link" }, t("web-rules")),
          h("button", { type: "button", class: "small invite", onclick: () => { navigator.clipboard?.writeText(location.href).catch(() => undefined); showError(location.href); } }, t("web-invite"))),
        !connected ? h("p", { class: "banner" }, t("web-reconnecting")) : null,
        toast ? h("p", { class: "toast", role: "alert" }, toast) : null,
        info.length ? h("p", { class: "info" }, info) : null,
        h("div", { class: "seats" }, order.map(seatBox)),
        welcome.host && token && !st.started
          ? h("button", { type: "button", class: "primary start", onclick: () => hostAction(() => api.start(id, token)) }, t("web-start"))
          : null,
        st.deal !== null ? trickView() : null,
        countdown(),
        prompt_(),
        handView(),
        gameOver,
        scoreTable(),
        summaryDialog()),
    );
    tick();
  };

  render();
  connect();
  return () => {
    window.clearInterval(ticker);
    closed = true;
    socket?.close();
  };
}
