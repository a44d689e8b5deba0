// A table: seats, the trick, the hand (select, then confirm), questions, scores and summaries.
// Everything shown comes from the server's state message for this seat: the browser never
// decides what is legal.
import {
  ApiError, DEFAULT_LEVEL, api, botName, errorText, forgetSeat, refusalText, jsonBody, presets, request, savedName, saveName, saveSeat, savedSeat, saveToken, savedToken, savedKey, saveKey, withKey,
  type BotLevel, type Preset, type TableSummary,
} from "./api";
import { cardSound, markTurn, setSound, soundOn } from "./attention";
import { cardEl, cardLabel, suitName, suitSymbol } from "./cards";
import { chatPanel, type ChatMsg } from "./chat";
import { clear, h, isolate, nameEl, navLink } from "./dom";
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
  /** How many deals the game lasts, where the rules fix it. */
  deals_total: number | null;
  /** Which way play passes round the table, seen from above. */
  direction: "clockwise" | "counter-clockwise";
  /** Whether the scores are penalty points, the fewest winning. */
  penalties: boolean;
  /** Whether a trump suit comes about in this game. */
  trumps: boolean;
  /** Each seat's strokes and circles, where the rules keep the score that way. */
  tallies?: string[];
  /** The undo request waiting for answers. */
  undo?: { by: number; waiting: number[] };
  /** How this seat may take back its last action now. */
  may_undo?: "now" | "ask";
  /** When the move timer of the seat to act runs out (ms since the epoch, server clock). */
  deadline?: number;
  /** The series' games before this one, oldest first (a rematch's table). */
  series?: { table: string; totals: number[]; winners: number[] }[];
  /** The rematch's table, once this game is over and someone asked for it. */
  next?: string;
  dealer?: number;
  phase?: "lot" | "play" | "call" | "joker" | "over";
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
  exempt?: number[];
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

/** How a table page's connection stands: what the banner says and whether play is possible. */
type Conn = "connecting" | "open" | "waiting" | "offline";

/** Why a socket was refused before it opened, as far as the server's answers tell. */
type Refused =
  | { why: "down" }
  | { why: "gone"; body: Record<string, unknown> | null }
  | { why: "replaced" }
  | { why: "refused" };

/**
 * The presets whose joker, played as a trick's last card, is said by its player to win or lose
 * (`joker:win`, `joker:lose`; three-player Mini Misère). The state message carries the trick,
 * not the saying: with these rules a joker played last to a completed trick was said to win
 * exactly when its player took the trick.
 */
const JOKER_SAID = new Set(["mini-misere-3"]);

/** What the joker's player said of a completed trick, in words; null if nothing was said. */
export function jokerSaying(ruleset: string, players: number, trick: Trick, name: (s: number) => string): string | null {
  if (!JOKER_SAID.has(ruleset) || trick.cards.length !== players || trick.cards[players - 1] !== "JK") return null;
  const seat = (trick.leader + players - 1) % players;
  return t(trick.winner === seat ? "says-joker-win" : "says-joker-lose", { seat: name(seat) });
}

/** How long a person has been away, in words ("away for 2 min"). */
function absentText(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return t("web-absent-seconds", { seconds });
  if (seconds < 3600) return t("web-absent-minutes", { minutes: Math.floor(seconds / 60) });
  return t("web-absent-hours", { hours: Math.floor(seconds / 3600) });
}

/**
 * The table's invite link: at the address the server is known by when it says so
 * (`<meta name="torite-public-url">`, from `torite serve --public-url`), else this page's.
 */
export function inviteLink(id: string): string {
  const publicUrl = document.querySelector<HTMLMetaElement>('meta[name="torite-public-url"]')?.content;
  return withKey(id, (publicUrl ? publicUrl.replace(/\/+$/, "") : location.origin) + location.pathname);
}

/** The wait before reconnecting after `attempts` failures: 1, 2, 4, 8, then 15 s, ±20%. */
export function backoff(attempts: number): number {
  const base = Math.min(15000, 1000 * 2 ** Math.max(0, Math.min(attempts - 1, 4)));
  return Math.round(base * (0.8 + 0.4 * Math.random()));
}

/** A socket that has said nothing for this long is pinged; one silent for `DEAD_AFTER` is dropped. */
const PING_AFTER = 20000;
const DEAD_AFTER = 30000;

/**
 * Where a seat sits round the table, as a direction from the centre (x right, y down, each
 * from -1 to 1): `bottom` (the reader's seat, or seat 1 for a spectator) at the bottom, the
 * others spread evenly the way play passes (clockwise: the next seat is to the bottom seat's
 * left, on the left of the screen).
 */
export function seatDirection(seat: number, bottom: number, players: number, clockwise: boolean): { x: number; y: number } {
  const k = (seat - bottom + players) % players;
  const angle = Math.PI / 2 + (clockwise ? 1 : -1) * (2 * Math.PI * k) / players;
  return { x: Math.round(Math.cos(angle) * 1000) / 1000, y: Math.round(Math.sin(angle) * 1000) / 1000 };
}

/** How long a completed trick stays in view before it goes to its winner (ms). */
const KEEP_TRICK = 1500;
/** How long the trick takes to slide to its winner (ms), as in the style sheet. */
const GATHER = 350;

const reducedMotion = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;

/** The last state and welcome each table page had, shown again at once when it is redrawn
 * (another language) even while the server cannot be reached. */
const kept = new Map<string, { state: State; welcome: Welcome }>();
/** Tables where this browser's seat was given to a bot and the notice is still up. */
const replacedAt = new Set<string>();

export function renderTable(root: HTMLElement, id: string, go: (path: string) => void): () => void {
  const spectator: Welcome = { type: "welcome", seat: null, host: false };
  let state: State | null = kept.get(id)?.state ?? null;
  let welcome: Welcome = kept.get(id)?.welcome ?? spectator;
  let socket: WebSocket | null = null;
  let closed = false;
  let selected: string | null = null;
  let shownResults = state ? state.results.length : -1;
  let summary: Result | null = null;
  // The trick just completed, kept in view (about 1.5 s, or until a tap) before it goes to
  // its winner; the trick after it is shown once it has gone.
  let kept_: { trick: Trick; key: string } | null = null;
  let gathering = false;
  let keepTimer = 0;
  let seenTricks: { deal: number; completed: number } | null = null;
  // The played cards already drawn, so that only a new one moves in from its player.
  const drawnCards = new Set<string>();
  // Whether it was this seat's turn at the last drawing (the turn's notice is given once).
  let myTurn = false;
  const baseTitle = document.title;
  let toast = "";
  let toastTimer = 0;
  let note = "";
  let noteTimer = 0;
  // The connection: play is possible only once the socket is open and has brought a state.
  let conn: Conn = "connecting";
  let fresh = false;
  let attempts = 0;
  // The server closed the socket because it is shutting down (close code 1001): it is being
  // restarted, so the wait is short and the banner says so.
  let restarting = false;
  let retryAt = 0;
  let retryTimer = 0;
  let lastHeard = 0;
  // This browser's seat was given to a bot while it was away: say so, offer to watch.
  let replaced = replacedAt.has(id);
  const live = () => conn === "open" && fresh && !replaced;
  // The chat: one panel kept across redraws; its messages go out on the table's socket.
  const chat = chatPanel((msg) => {
    if (!socket || socket.readyState !== WebSocket.OPEN || !live()) return false;
    socket.send(JSON.stringify(msg));
    return true;
  });
  // The server's clock less ours, for counting down move timers and absences.
  let clockOffset = 0;
  const serverNow = () => Date.now() + clockOffset;
  const t0 = Date.now();
  fetch("/api/time")
    .then((res) => res.json())
    .then((body: { now: number }) => {
      const t1 = Date.now();
      if (typeof body.now === "number") clockOffset = body.now - (t0 + t1) / 2;
      tick();
    })
    .catch(() => undefined);
  let preset: Preset | undefined;
  let bots: BotLevel[] = [];
  presets()
    .then((list) => {
      preset = list.find((p) => p.id === state?.ruleset);
      render();
    })
    .catch(() => undefined);
  api.bots()
    .then((b) => {
      bots = b;
      render();
    })
    .catch(() => undefined);

  /** Keeps a trick in view when `s` has completed one since the last state. */
  const noticeTrick = (s: State) => {
    const completed = s.tricks_completed ?? 0;
    const before = seenTricks;
    seenTricks = s.deal === null ? null : { deal: s.deal, completed };
    // An undo took the kept trick back (or a new deal began): the table shows what is.
    if (kept_ && (!before || s.deal !== before.deal || completed < before.completed)) {
      window.clearTimeout(keepTimer);
      kept_ = null;
      gathering = false;
    }
    if (!before || s.deal !== before.deal || completed <= before.completed || !s.last_trick) return;
    window.clearTimeout(keepTimer);
    gathering = false;
    kept_ = { trick: s.last_trick, key: `${s.deal}:${completed - 1}` };
    keepTimer = window.setTimeout(endKeep, KEEP_TRICK);
  };

  /** The kept trick goes to its winner (at once under reduced motion), then the table goes on. */
  const endKeep = () => {
    window.clearTimeout(keepTimer);
    if (!kept_) return;
    if (reducedMotion() || gathering) {
      kept_ = null;
      gathering = false;
      render();
      return;
    }
    gathering = true;
    root.querySelectorAll(".trick .spot").forEach((el) => el.classList.add("gather"));
    keepTimer = window.setTimeout(() => {
      kept_ = null;
      gathering = false;
      render();
    }, GATHER);
  };

  const showError = (message: string) => {
    toast = message;
    window.clearTimeout(toastTimer);
    toastTimer = window.setTimeout(() => {
      toast = "";
      render();
    }, 5000);
    render();
  };

  /** A passing notice that is not an error (the invite link), for a few seconds. */
  const showNote = (message: string) => {
    note = message;
    window.clearTimeout(noteTimer);
    noteTimer = window.setTimeout(() => {
      note = "";
      render();
    }, 8000);
    render();
  };

  /** Lets a socket go without hearing from it again. */
  const drop = (ws: WebSocket | null) => {
    if (!ws) return;
    ws.onopen = null;
    ws.onmessage = null;
    ws.onclose = null;
    try {
      ws.close();
    } catch {
      // already closed
    }
    if (socket === ws) socket = null;
  };

  const connect = () => {
    window.clearTimeout(retryTimer);
    if (closed || replaced) return;
    drop(socket);
    conn = "connecting";
    fresh = false;
    const token = savedToken(id);
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(withKey(id, `${proto}://${location.host}/ws/${id}${token ? `?token=${encodeURIComponent(token)}` : ""}`));
    socket = ws;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      conn = "open";
      lastHeard = Date.now();
      render();
    };
    ws.onmessage = (ev) => {
      lastHeard = Date.now();
      let msg: { type?: string; [k: string]: unknown };
      try {
        msg = JSON.parse(String(ev.data));
      } catch {
        return;
      }
      if (msg.type === "welcome") {
        welcome = msg as unknown as Welcome;
        if (welcome.seat !== null) saveSeat(id, welcome.seat);
      } else if (msg.type === "state") {
        const s = msg as unknown as State;
        if (shownResults >= 0 && s.results.length > shownResults) {
          summary = s.results[s.results.length - 1];
        }
        shownResults = s.results.length;
        noticeTrick(s);
        state = s;
        kept.set(id, { state: s, welcome });
        fresh = true;
        attempts = 0;
        if (!preset) {
          presets()
            .then((list) => {
              preset = list.find((p) => p.id === s.ruleset);
              render();
            })
            .catch(() => undefined);
        }
        if (selected && !(s.legal ?? []).includes(selected)) selected = null;
        render();
      } else if (msg.type === "chat") {
        chat.take(msg as unknown as ChatMsg);
        render();
      } else if (msg.type === "replaced") {
        beReplaced();
      } else if (msg.type === "error") {
        showError(refusalText(msg.code, msg.args) ?? String(msg.message ?? ""));
      }
    };
    ws.onclose = (ev: CloseEvent) => {
      if (socket !== ws) return;
      socket = null;
      restarting = ev.code === 1001;
      if (restarting) attempts = 0;
      void lost(opened, token);
    };
    render();
  };

  /** The seat was given to a bot: forget the token, close the socket, say so. */
  const beReplaced = () => {
    replaced = true;
    replacedAt.add(id);
    forgetSeat(id);
    kept.delete(id);
    welcome = spectator;
    selected = null;
    drop(socket);
    window.clearTimeout(retryTimer);
    render();
  };

  /**
   * Why the server would not take the socket. A refused upgrade shows the browser nothing of
   * the answer (the server's 403 `replaced`), so the table's public summary is asked instead:
   * the seat this browser held now has a bot in it.
   */
  const whyRefused = async (token: string | null): Promise<Refused> => {
    const res = await request(withKey(id, `/api/tables/${id}`)).catch(() => null);
    if (!res) return { why: "down" };
    if (res.status === 404) {
      const body = await jsonBody(res);
      return { why: "gone", body: body && typeof body === "object" ? (body as Record<string, unknown>) : null };
    }
    if (!res.ok || !token) return { why: "down" };
    const summary = (await jsonBody(res)) as TableSummary | null;
    const mine = savedSeat(id);
    if (mine !== null && summary?.seats?.[mine]?.kind === "bot") return { why: "replaced" };
    // A token for no seat this browser knows of, refused while the table answers: it holds no
    // seat here. (A known seat still a person's: a passing refusal, such as too many sockets.)
    if (mine === null) return { why: "refused" };
    return { why: "down" };
  };

  const gonePage = (body: Record<string, unknown> | null) => {
    closed = true;
    const record = typeof body?.record === "string" ? body.record : null;
    clear(root, h("section", { class: "game-over" },
      h("h2", {}, record ? t("game-over") : t("web-error", { message: errorText(new ApiError(404, String(body?.error ?? id), body)) })),
      record ? navLink(`/t/${id}/history`, go, { class: "button history-link" }, t("web-history")) : null,
      record ? h("a", { href: record, download: `torite-${id}.json`, class: "button" }, t("web-record")) : null,
      h("p", {}, h("a", { href: "/", onclick: (e: Event) => { e.preventDefault(); go("/"); } }, "← ", t("web-lobby")))));
  };

  const lost = async (opened: boolean, token: string | null) => {
    fresh = false;
    selected = null;
    if (closed || replaced) return;
    if (!opened) {
      // Still trying: ask the server why before counting down.
      conn = "connecting";
      render();
      const verdict = await whyRefused(token);
      if (closed || replaced || socket) return;
      if (verdict.why === "gone") return gonePage(verdict.body);
      if (verdict.why === "replaced") return beReplaced();
      if (verdict.why === "refused") {
        // The token holds no seat here (and was never this seat's, as far as this browser
        // knows): watch instead.
        forgetSeat(id);
        kept.delete(id);
        welcome = spectator;
        showError(t("web-err-token"));
        return connect();
      }
    }
    retry();
  };

  /** Waits before the next attempt, longer after each failure (until the browser is back online). */
  const retry = () => {
    attempts++;
    const delay = backoff(attempts);
    conn = navigator.onLine === false ? "offline" : "waiting";
    retryAt = Date.now() + delay;
    window.clearTimeout(retryTimer);
    retryTimer = window.setTimeout(connect, delay);
    render();
  };

  const onOnline = () => {
    if (!live() && !socket) connect();
  };
  const onOffline = () => {
    // The socket would hang until it times out: play stops now, and resumes once back.
    if (socket) {
      drop(socket);
      attempts = Math.max(attempts, 1);
    }
    conn = "offline";
    fresh = false;
    selected = null;
    window.clearTimeout(retryTimer);
    retryTimer = window.setTimeout(connect, backoff(5));
    render();
  };
  window.addEventListener("online", onOnline);
  window.addEventListener("offline", onOffline);
  // A key sends the kept trick on, as a tap does.
  const onKey = (e: KeyboardEvent) => {
    // Keys typed into the chat are the chat's.
    if (e.target instanceof HTMLInputElement) return;
    if (kept_ && (e.key === "Escape" || e.key === " ")) endKeep();
  };
  window.addEventListener("keydown", onKey);
  // A socket that has gone quiet may be dead without a close (a lost network): ping it, and
  // give it up if even that brings nothing.
  const heartbeat = window.setInterval(() => {
    if (conn !== "open" || !socket) return;
    const quiet = Date.now() - lastHeard;
    if (quiet > DEAD_AFTER) {
      const ws = socket;
      drop(ws);
      void lost(true, null);
    } else if (quiet > PING_AFTER && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ type: "ping" }));
    }
  }, 5000);

  const send = (action: string) => {
    if (!state || !live() || !socket || socket.readyState !== WebSocket.OPEN) return;
    socket.send(JSON.stringify({ type: "act", action, version: state.version }));
    selected = null;
    // The person has moved on: the kept trick goes to its winner.
    if (kept_) endKeep();
  };

  /** Sends a message other than an action (undo and its answers) while play is possible. */
  const sendMsg = (msg: Record<string, unknown>) => {
    if (!state || !live() || !socket || socket.readyState !== WebSocket.OPEN) return;
    socket.send(JSON.stringify(msg));
  };

  /**
   * Undo: the button that takes back this seat's last move (at once against bots, else a
   * request), and a request waiting for answers, with the buttons of whoever is asked.
   */
  const undoView = (): HTMLElement | null => {
    const st = state!;
    const off = !live();
    const me = welcome.seat;
    const request = st.undo;
    if (request && me !== null) {
      if (request.waiting.includes(me)) {
        return h("div", { class: "undo-request ask", role: "alert" },
          h("span", {}, t("web-undo-asked", { seat: seatName(request.by) })),
          h("div", { class: "actions" },
            h("button", { type: "button", class: "primary accept", disabled: off, onclick: () => sendMsg({ type: "undo_answer", accept: true }) }, t("web-undo-accept")),
            h("button", { type: "button", class: "decline", disabled: off, onclick: () => sendMsg({ type: "undo_answer", accept: false }) }, t("web-undo-decline"))));
      }
      if (request.by === me) {
        return h("div", { class: "undo-request mine", role: "status" },
          h("span", {}, t("web-undo-waiting", { seats: request.waiting.map(seatName).join(", ") })),
          h("button", { type: "button", class: "small withdraw", disabled: off, onclick: () => sendMsg({ type: "undo_answer", accept: false }) }, t("web-undo-withdraw")));
      }
    }
    if (request) return h("div", { class: "undo-request", role: "status" }, t("web-undo-asked", { seat: seatName(request.by) }));
    if (!st.may_undo || st.finished) return null;
    return h("div", { class: "undo-bar" },
      h("button", {
        type: "button", class: "small undo", "data-way": st.may_undo, disabled: off,
        onclick: () => {
          if (kept_) endKeep();
          selected = null;
          sendMsg({ type: "undo", version: st.version });
        },
      }, "↶ ", t(st.may_undo === "now" ? "web-undo" : "web-undo-ask")));
  };

  /** A seat's name and what follows it: its number when several seats share the name, "You". */
  const seatParts = (s: number): { name: string; suffix: string } => {
    const seats = state?.table.seats ?? [];
    // A bot of a named level is called by the level's name in the reader's language.
    const shownName = (x: { kind: string; bot?: string | null; name: string } | undefined) =>
      x?.kind === "bot" ? botName(x.bot ?? x.name, bots) : x?.name;
    const given = shownName(seats[s]);
    // A name that several seats share (bots of one kind) gets its seat number, as in the history.
    const shared = !!given && seats.filter((x) => shownName(x) === given).length > 1;
    let suffix = shared ? ` (${t("seat", { seat: s + 1 })})` : "";
    if (s === welcome.seat) suffix += ` (${t("seat-you")})`;
    return { name: given || t("seat", { seat: s + 1 }), suffix };
  };
  /** A seat's name inside a sentence (isolated). */
  const seatName = (s: number): string => {
    const p = seatParts(s);
    return isolate(p.name) + p.suffix;
  };
  /** A seat's name as an element (isolated, ellipsised). */
  const seatLabel = (s: number): HTMLElement => {
    const p = seatParts(s);
    return nameEl(p.name, p.suffix);
  };

  const hostAction = async (f: () => Promise<unknown>) => {
    try {
      await f();
    } catch (e) {
      showError(errorText(e));
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
      st.exempt?.includes(s) ? h("span", { class: "badge exempt", title: t("web-exempt-help") }, t("play-exempt")) : null,
    ];
    const stats: (HTMLElement | null)[] = [];
    if (st.hand_sizes) stats.push(h("span", {}, `${st.hand_sizes[s]} ${t("web-cards")}`));
    if (st.tricks_won) stats.push(h("span", {}, `${t("tricks-won")} ${st.tricks_won[s]}`));
    if (st.card_points && st.card_points.some((p) => p > 0)) stats.push(h("span", {}, `${t("card-points")} ${st.card_points[s]}`));
    // The running total in the game's own notation: the Jass sheet's strokes and circles
    // where the rules keep it so, else the points.
    const tally = st.tallies?.[s];
    stats.push(tally !== undefined
      ? h("span", { class: "tally", title: `${t("total")} ${st.totals[s] ?? 0}` }, `${t("total")} `, h("span", { class: "marks" }, tally || "—"))
      : h("span", {}, `${t("total")} ${st.totals[s] ?? 0}`));
    // Every control waits for the connection: while it is down the server would not hear it.
    const off = !live();
    let control: HTMLElement | null = null;
    // A person away (no connection) since when, by the server's clock; null when connected.
    const absent = info.kind === "human" && !info.connected ? info.absent_since ?? null : null;
    if (info.kind === "empty" && !st.started) {
      if (welcome.host && token) {
        const pick = h("select", { class: "bot-pick", "aria-label": t("web-add-bot") },
          bots.map((b) => h("option", { value: b.id, selected: b.id === DEFAULT_LEVEL, title: b.description }, b.name))) as HTMLSelectElement;
        control = h("div", { class: "controls" }, pick,
          h("button", { type: "button", class: "add-bot", "data-seat": s, disabled: off, onclick: () => hostAction(() => api.bot(id, s, pick.value, token)) }, t("web-add-bot")));
      } else if (welcome.seat === null && !st.series) {
        // (A rematch's empty seats are kept for the players of the last game.)
        control = h("button", {
          type: "button", class: "join", "data-seat": s, disabled: off,
          onclick: async () => {
            const name = savedName() || prompt(t("web-your-name")) || "";
            if (!name.trim()) return;
            try {
              const j = await api.join(id, s, name.trim());
              saveName(name.trim());
              saveToken(id, j.token);
              saveSeat(id, s);
              connect();
            } catch (e) {
              showError(errorText(e));
            }
          },
        }, t("web-join"));
      }
    } else if (info.kind === "human" && !info.connected && welcome.host && token && s !== welcome.seat && !st.finished) {
      // The host may give an absent person's seat to a bot once they have been away long
      // enough (the server says how long); until then the wait is counted down.
      const after = st.table.replace_after_ms;
      const at = absent !== null && after !== undefined ? absent + after : null;
      control = at !== null && serverNow() < at
        ? h("span", { class: "replace-wait muted", "data-replace-at": at })
        : h("button", { type: "button", class: "replace small", "data-seat": s, disabled: off, onclick: () => hostAction(() => api.bot(id, s, DEFAULT_LEVEL, token)) }, t("web-replace-bot"));
    }
    let kind: HTMLElement;
    if (info.kind === "bot") kind = h("div", { class: "seat-kind" }, t("web-bot"));
    else if (info.kind === "empty" && st.series && !st.started) kind = h("div", { class: "seat-kind kept" }, t("web-seat-kept"));
    else if (info.kind === "empty") kind = h("div", { class: "seat-kind" }, t("web-empty-seat"));
    else if (s === welcome.seat && off) kind = h("div", { class: "seat-kind offline" }, t("web-conn-you-offline"));
    else if (info.connected) kind = h("div", { class: "seat-kind online" }, t("web-online"));
    else if (absent !== null) kind = h("div", { class: "seat-kind away", "data-absent-since": absent });
    else kind = h("div", { class: "seat-kind away" }, t("web-away"));
    return h("div", { class: `seat-box ${toAct ? "acting" : ""} ${s === welcome.seat ? "me" : ""} kind-${info.kind}`, "data-seat": s },
      h("div", { class: "seat-head" }, h("strong", { class: "seat-title" }, info.kind === "empty" ? t("seat", { seat: s + 1 }) : seatLabel(s)), ...badges),
      kind,
      st.started ? h("div", { class: "stats" }, stats) : null,
      control);
  };

  /** The joker's saying of a completed trick, as an element before its winner, or nothing. */
  const saidOf = (trick: Trick): HTMLElement | null => {
    const said = jokerSaying(state!.ruleset, state!.players, trick, seatName);
    return said ? h("span", { class: "joker-said" }, said, " — ") : null;
  };

  /** Where the shown seats sit: the reader's at the bottom (a spectator's: seat 1). */
  const seatAt = (seat: number) => {
    const st = state!;
    return seatDirection(seat, welcome.seat ?? 0, st.players, st.direction !== "counter-clockwise");
  };

  /**
   * Gives `el` the direction from the centre of the table to where `seat` sits, as custom
   * properties (`--{prefix}x`, `--{prefix}y`) the style sheet turns into its position. (Set
   * through the CSSOM: the page's policy allows no style attributes.)
   */
  const place = (el: HTMLElement, seat: number, prefix: string): HTMLElement => {
    const d = seatAt(seat);
    el.style.setProperty(`--${prefix}x`, String(d.x));
    el.style.setProperty(`--${prefix}y`, String(d.y));
    return el;
  };

  /** The caption under the table: whose lead it is, the trick's number, or who took it. */
  const trickCaption = (trick: Trick | null): HTMLElement => {
    const st = state!;
    if (trick) {
      return h("p", { class: "trick-caption label" }, t("last-trick"), " — ", saidOf(trick), t("trick-won-by", { seat: seatName(trick.winner) }));
    }
    const cards = st.trick ?? [];
    if (cards.length) return h("p", { class: "trick-caption label" }, t("trick", { number: (st.tricks_completed ?? 0) + 1 }));
    const last = st.last_trick;
    if (last) {
      return h("p", { class: "trick-caption label" },
        h("details", { class: "last-trick" },
          h("summary", {}, t("last-trick"), " — ", saidOf(last), t("trick-won-by", { seat: seatName(last.winner) })),
          h("div", { class: "played" }, last.cards.map((c, i) => cardEl(c, { small: true, selected: (last.leader + i) % st.players === last.winner })))));
    }
    return h("p", { class: "trick-caption label" }, st.leader !== undefined && st.phase !== "over" ? t("leader", { seat: seatName(st.leader) }) : "");
  };

  /**
   * The table: the seats round the felt, each card played in front of its player (the one
   * winning so far marked), a completed trick kept in view until it goes to its winner.
   */
  const trickView = (): HTMLElement => {
    const st = state!;
    const showKept = kept_ !== null;
    const played: { seat: number; card: string }[] = kept_
      ? kept_.trick.cards.map((card, i) => ({ seat: (kept_!.trick.leader + i) % st.players, card }))
      : st.trick ?? [];
    const winning = kept_ ? kept_.trick.winner : st.winning;
    const key = kept_ ? kept_.key : `${st.deal}:${st.tricks_completed ?? 0}`;
    let fresh = false;
    const spots = played.map((p) => {
      const id = `${key}:${p.seat}:${p.card}`;
      const entering = !drawnCards.has(id);
      if (entering) {
        drawnCards.add(id);
        fresh = true;
      }
      const el = h("figure", {
        class: `spot ${winning === p.seat ? "winning" : ""} ${entering && !reducedMotion() ? "enter" : ""} ${gathering ? "gather" : ""}`,
        "data-seat": p.seat,
      }, cardEl(p.card), winning === p.seat ? h("span", { class: "win-mark", "aria-hidden": "true" }, "★") : null);
      el.setAttribute("aria-label", `${cardLabel(p.card)} — ${seatName(p.seat)}${winning === p.seat ? ` (${t(showKept ? "web-trick-taker" : "web-trick-winning")})` : ""}`);
      place(el, p.seat, "s");
      if (winning !== null && winning !== undefined) place(el, winning, "w");
      return el;
    });
    if (fresh) cardSound();
    const area = h("div", {
      class: `table-area seats-${st.players}`,
      onclick: () => {
        if (kept_) endKeep();
      },
    },
      h("div", { class: "felt", "aria-hidden": "true" }),
      st.table.seats.map((_, s) => place(seatBox(s), s, "")),
      spots);
    return h("section", { class: `trick table-trick ${showKept ? "kept" : ""}`, "aria-label": t("trick", { number: (st.tricks_completed ?? 0) + (showKept ? 0 : 1) }) },
      area,
      trickCaption(kept_?.trick ?? null));
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

  const setText = (el: HTMLElement, text: string) => {
    if (el.textContent !== text) el.textContent = text;
  };
  const tick = () => {
    const now = serverNow();
    root.querySelectorAll<HTMLElement>(".countdown[data-deadline]").forEach((el) => {
      const left = Math.max(0, Math.ceil((Number(el.dataset.deadline) - now) / 1000));
      setText(el, el.dataset.mine
        ? t("web-timer-mine", { seconds: left })
        : t("web-timer-left", { seat: seatName(Number(el.dataset.seat)), seconds: left }));
      el.classList.toggle("low", left <= 5);
    });
    root.querySelectorAll<HTMLElement>("[data-absent-since]").forEach((el) => {
      setText(el, absentText(now - Number(el.dataset.absentSince)));
    });
    let due = false;
    root.querySelectorAll<HTMLElement>("[data-replace-at]").forEach((el) => {
      const left = Math.ceil((Number(el.dataset.replaceAt) - now) / 1000);
      if (left <= 0) due = true;
      setText(el, t("web-replace-in", { seconds: Math.max(0, left) }));
    });
    root.querySelectorAll<HTMLElement>("[data-retry-at]").forEach((el) => {
      setText(el, t(restarting ? "web-conn-restarting" : "web-conn-retry", { seconds: Math.max(0, Math.ceil((Number(el.dataset.retryAt) - Date.now()) / 1000)) }));
    });
    // An absent person's seat may be given to a bot now: show the button.
    if (due) render();
  };
  const ticker = window.setInterval(tick, 250);

  const prompt_ = (): HTMLElement | null => {
    const st = state!;
    // A rematch starts by itself once the people of the game before are back.
    if (!st.started && st.series) return h("p", { class: "prompt" }, t(welcome.host ? "web-rematch-waiting-host" : "web-rematch-waiting"));
    if (!st.started) return h("p", { class: "prompt" }, t(welcome.host ? "web-host-start" : "web-waiting-start"));
    if (st.finished) return null;
    const legal = st.legal ?? [];
    if (welcome.seat === null) return h("p", { class: "prompt" }, t("web-watching"));
    if (!legal.length) {
      return st.to_act !== null && st.to_act !== undefined ? h("p", { class: "prompt muted" }, t("web-waiting", { seat: seatName(st.to_act) })) : null;
    }
    const parts: HTMLElement[] = [];
    const off = !live();
    if (st.phase === "lot") {
      parts.push(h("p", { class: "prompt" }, t("lot-question")),
        h("div", { class: "actions" },
          h("button", { type: "button", class: "primary", "data-action": "lot", disabled: off, onclick: () => send("lot") }, t("action-lot")),
          h("button", { type: "button", "data-action": "pass", disabled: off, onclick: () => send("pass") }, t("action-pass"))));
    } else if (st.phase === "call") {
      parts.push(h("p", { class: "prompt" }, t("call-question")),
        h("div", { class: "actions" }, legal.filter((a) => a.startsWith("call:")).map((a) => {
          const s = a.slice(5);
          return h("button", { type: "button", class: `suit-${s}`, "data-action": a, disabled: off, onclick: () => send(a) }, `${suitSymbol(s)} ${suitName(s)}`);
        })));
    } else if (st.phase === "joker") {
      // The joker played last: its player says whether it wins the trick, in words.
      parts.push(h("p", { class: "prompt" }, t("joker-question")),
        h("div", { class: "actions" }, (["joker:win", "joker:lose"] as const).filter((a) => legal.includes(a)).map((a) =>
          h("button", { type: "button", class: a === "joker:win" ? "primary joker-say" : "joker-say", "data-action": a, disabled: off, onclick: () => send(a) },
            t(a === "joker:win" ? "action-joker-win" : "action-joker-lose")))));
    } else {
      parts.push(h("p", { class: "prompt" }, t("your-turn")));
      if (legal.includes("lot")) {
        parts.push(h("div", { class: "actions" }, h("span", { class: "muted" }, t("lot-question-first-card")),
          h("button", { type: "button", "data-action": "lot", disabled: off, onclick: () => send("lot") }, t("action-lot"))));
      }
    }
    return h("div", { class: "ask" }, parts);
  };

  const handView = (): HTMLElement | null => {
    const st = state!;
    if (!st.hand) return null;
    // Cards play only while the connection is up and its state is fresh.
    const off = !live();
    const legal = new Set(st.legal ?? []);
    const cards = st.hand.map((c) =>
      cardEl(c, {
        selected: c === selected,
        disabled: off || !legal.has(c),
        onClick: () => {
          if (!live()) return;
          if (selected === c) send(c);
          else selected = c;
          render();
        },
      }),
    );
    const confirm = selected
      ? h("button", { type: "button", class: "primary confirm", "data-action": selected, disabled: off, onclick: () => selected && send(selected) }, t("web-play-card", { card: cardLabel(selected) }))
      : null;
    return h("section", { class: "hand-area" }, h("div", { class: "label" }, t("hand")), h("div", { class: "hand" }, cards), confirm);
  };

  const scoreTable = (): HTMLElement | null => {
    const st = state!;
    if (!st.results.length) return null;
    return h("details", { class: "scores", open: st.finished },
      h("summary", {}, t(st.penalties ? "play-penalty" : "score")),
      h("table", {},
        h("thead", {}, h("tr", {}, h("th", {}, "#"), st.table.seats.map((_, s) => h("th", {}, seatLabel(s))))),
        h("tbody", {}, st.results.map((r) => h("tr", {}, h("td", {}, String(r.deal + 1)), r.scores.map((x) => h("td", {}, String(x)))))),
        h("tfoot", {},
          h("tr", {}, h("th", {}, t("total")), st.totals.map((x) => h("th", {}, String(x)))),
          // Where the rules keep the score as the Jass sheet does: each seat's strokes and circles.
          st.tallies ? h("tr", { class: "tallies" }, h("th", {}, ""), st.tallies.map((m) => h("td", { class: "marks" }, m || "—"))) : null)),
      st.held ? h("p", { class: "muted" }, t("held-points", { count: st.held })) : null);
  };

  /** Goes to this game's rematch: asks for it (or accepts it) with this seat's token, which
   * stays the same there, as does a private table's secret. */
  const rematch = async () => {
    const token = savedToken(id);
    if (!token) return;
    try {
      const next = await api.rematch(id, token);
      saveToken(next.id, token);
      saveSeat(next.id, next.seat);
      const key = savedKey(id);
      if (key) saveKey(next.id, key);
      go(`/t/${next.id}`);
    } catch (e) {
      showError(errorText(e));
    }
  };

  /** The series' running result: each game's totals, this one's so far, and the wins. */
  const seriesView = (): HTMLElement | null => {
    const st = state!;
    if (!st.series?.length) return null;
    const games = [...st.series, ...(st.finished ? [{ table: id, totals: st.totals, winners: st.winners }] : [])];
    const wins = st.table.seats.map((_, s) => games.filter((g) => g.winners.includes(s)).length);
    return h("details", { class: "scores series", open: st.finished },
      h("summary", {}, t("web-series", { games: games.length + (st.finished ? 0 : 1) })),
      h("table", {},
        h("thead", {}, h("tr", {}, h("th", {}, "#"), st.table.seats.map((_, s) => h("th", {}, seatLabel(s))))),
        h("tbody", {},
          games.map((g, i) => h("tr", { "data-game": i + 1 }, h("td", {}, String(i + 1)), g.totals.map((x, s) => h("td", { class: g.winners.includes(s) ? "series-win" : "" }, String(x))))),
          st.finished ? null : h("tr", { class: "muted" }, h("td", {}, String(games.length + 1)), st.totals.map((x) => h("td", {}, String(x))))),
        h("tfoot", {}, h("tr", { class: "series-wins" }, h("th", {}, t("web-series-wins")), wins.map((w) => h("th", {}, String(w)))))));
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
          h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, t("tricks-won")), h("th", {}, t("card-points")), h("th", {}, t(st.penalties ? "play-penalty" : "score")), h("th", {}, t("total")))),
          h("tbody", {}, st.table.seats.map((_, s) => h("tr", {}, h("th", {}, seatLabel(s)), h("td", {}, String(r.tricks[s])), h("td", {}, String(r.points[s])), h("td", {}, String(r.scores[s])), h("td", {}, String(r.totals[s])))))),
        h("button", { type: "button", class: "primary close", onclick: () => { summary = null; render(); } }, t("web-close"))));
  };

  /** The connection's state while play is not possible: connecting, reconnecting in N s, offline. */
  const banner = (): HTMLElement | null => {
    if (live()) return null;
    const text =
      conn === "offline" ? h("span", {}, t("web-conn-offline"))
      : conn === "waiting" ? h("span", { "data-retry-at": retryAt })
      : h("span", {}, t(conn === "open" ? "web-conn-loading" : "web-conn-connecting"));
    return h("div", { class: `banner conn-banner conn-${conn}`, role: "status", "aria-live": "polite", "data-conn": conn },
      text,
      conn === "waiting" || conn === "offline"
        ? h("button", { type: "button", class: "small retry-now", onclick: () => connect() }, t("web-conn-retry-now"))
        : null);
  };

  /** This browser's seat was given to a bot while it was away. */
  const replacedView = (): HTMLElement =>
    h("section", { class: "game-over replaced", role: "alert" },
      h("h2", {}, t("web-replaced")),
      h("p", {}, t("web-replaced-help")),
      h("div", { class: "actions" },
        h("button", {
          type: "button", class: "primary watch",
          onclick: () => {
            replaced = false;
            replacedAt.delete(id);
            attempts = 0;
            connect();
          },
        }, t("web-replaced-watch")),
        h("a", { href: "/", class: "button", onclick: (e: Event) => { e.preventDefault(); go("/"); } }, "← ", t("web-lobby"))));

  const render = () => {
    if (closed) return;
    if (replaced) {
      clear(root, replacedView());
      return;
    }
    if (!state) {
      clear(root, banner() ?? h("p", { class: "muted" }, t("web-conn-loading")));
      tick();
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
      info.push(h("span", { class: "deal-no" }, st.deals_total
        ? t("play-deal-header-of", { number: st.deal + 1, deals: st.deals_total, dealer: seatName(st.dealer) })
        : t("deal-header", { number: st.deal + 1, dealer: seatName(st.dealer) })));
      if (st.trump === "JK") info.push(h("span", { class: "trump-info" }, t("trump-joker")));
      else if (st.trump) info.push(h("span", { class: `trump-info suit-${st.trump}` }, t("trump", { trump: `${suitSymbol(st.trump)} ${suitName(st.trump)}` })));
      else if (st.trumps) info.push(h("span", { class: "trump-info" }, t("web-trump-not-yet")));
      if (st.lot && st.lot.declarers.length) info.push(h("span", {}, t("lot-declared", { seats: st.lot.declarers.map(seatName).join(", ") })));
    }
    // Keep the line being written in the chat, and its focus, across the redraw.
    const typing = chat.focused();
    const selection = chat.selection();
    chat.draw({
      seat: welcome.seat,
      host: welcome.host,
      people: st.table.seats.flatMap((s, i) => (s.kind === "human" ? [{ seat: i, name: s.name }] : [])),
      live: live(),
    });
    if (st.table.timer) info.push(h("span", { class: "muted" }, t("web-timer-info", { seconds: st.table.timer })));
    const gameOver = st.finished
      ? h("section", { class: "game-over" },
          h("h2", {}, t("game-over")),
          h("p", {}, t(st.winners.length > 1 ? "winners" : "winner", { seats: st.winners.map(seatName).join(", ") })),
          h("div", { class: "actions" },
            navLink(`/t/${id}/history`, go, { class: "button primary history-link" }, t("web-history")),
            navLink(`/t/${id}/replay`, go, { class: "button replay-link" }, t("web-replay")),
            h("a", { href: withKey(id, `/api/tables/${id}/record`), download: `torite-${id}.json`, class: "button" }, t("web-record"))),
          // Play again: the same seats and rules; the others accept from their pages.
          welcome.seat !== null && token
            ? h("div", { class: "actions rematch" },
                h("button", { type: "button", class: "primary rematch-button", disabled: !live(), onclick: () => void rematch() },
                  t(st.next ? "web-rematch-join" : "web-rematch")),
                st.next ? h("span", { class: "muted" }, t("web-rematch-asked")) : null)
            : st.next
              ? h("div", { class: "actions rematch" }, h("a", {
                  href: `/t/${st.next}`, class: "button rematch-watch",
                  onclick: (e: Event) => {
                    e.preventDefault();
                    const key = savedKey(id);
                    if (key) saveKey(st.next!, key);
                    go(`/t/${st.next}`);
                  },
                }, t("web-rematch-watch")))
              : null)
      : null;
    clear(
      root,
      h("section", { class: `table-view ${live() ? "" : "stale"}`, "data-live": live() ? "1" : "" },
        h("header", { class: "table-head" },
          h("a", { href: "/", class: "back", onclick: (e: Event) => { e.preventDefault(); go("/"); } }, "← ", t("web-lobby")),
          h("h2", {}, name),
          savedKey(id) ? h("span", { class: "badge private-badge" }, t("web-private")) : null,
          navLink(`/t/${id}/rules`, go, { class: "button small rules-link" }, t("web-rules")),
          h("button", { type: "button", class: "small invite", onclick: () => { const link = inviteLink(id); navigator.clipboard?.writeText(link).catch(() => undefined); showNote(link); } }, t("web-invite")),
          h("button", {
            type: "button", class: "small sound", "aria-pressed": soundOn() ? "true" : "false", title: t("web-sound-help"),
            onclick: () => {
              setSound(!soundOn());
              render();
            },
          }, t(soundOn() ? "web-sound-on" : "web-sound-off"))),
        banner(),
        toast ? h("p", { class: "toast", role: "alert" }, toast) : null,
        note ? h("p", { class: "note", role: "status" }, note) : null,
        info.length ? h("p", { class: "info" }, info) : null,
        st.deal === null ? h("div", { class: "seats" }, order.map(seatBox)) : null,
        // A rematch starts by itself once every seat is filled.
        welcome.host && token && !st.started && !st.series
          ? h("button", { type: "button", class: "primary start", disabled: !live(), onclick: () => hostAction(() => api.start(id, token)) }, t("web-start"))
          : null,
        st.deal !== null ? trickView() : null,
        countdown(),
        st.deal !== null ? undoView() : null,
        prompt_(),
        handView(),
        gameOver,
        scoreTable(),
        seriesView(),
        chat.element,
        kept_ ? null : summaryDialog()),
    );
    if (typing) chat.refocus(selection);
    // The tab says when it is this seat's turn (title and icon), with the optional sound.
    const turn = live() && !st.finished && welcome.seat !== null && st.to_act === welcome.seat && (st.legal ?? []).length > 0;
    markTurn(turn, t("web-table-turn-title"), baseTitle, myTurn);
    myTurn = turn;
    tick();
  };

  render();
  connect();
  return () => {
    window.clearInterval(ticker);
    window.clearInterval(heartbeat);
    window.clearTimeout(retryTimer);
    window.clearTimeout(toastTimer);
    window.clearTimeout(noteTimer);
    window.clearTimeout(keepTimer);
    markTurn(false, "", baseTitle, true);
    window.removeEventListener("keydown", onKey);
    window.removeEventListener("online", onOnline);
    window.removeEventListener("offline", onOffline);
    closed = true;
    drop(socket);
  };
}
