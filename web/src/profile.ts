// Player profiles (docs/PROTOCOL.md, "Player profiles, statistics and the ranking"): a name and
// a secret key this browser keeps, "my games" on the lobby, the profile page with its
// statistics and the link (and QR code) that moves it to another device, the page that link
// opens (`/profile/move#key=…`), and the ranking (`/ranking`). Every seat this browser takes
// is kept with the profile, and a table page opened without the seat's token gets it back
// from the profile: the same profile is the same player on any device.
import "./profile.css";
import { errorText, onTokenSaved, refusal, request, saveKey, saveSeat, saveToken, savedKey, savedToken, withKey } from "./api";
import { clear, h, nameEl, navLink } from "./dom";
import { lang, t } from "./i18n";

const STORAGE = "torite-profile";

/** A profile as this browser keeps it. */
interface Kept {
  id: string;
  name: string;
  key: string;
}

export interface MyGame {
  table: string;
  seat: number;
  token: string | null;
  invite: string | null;
  status: "open" | "playing" | "finished" | "gone";
  preset: string;
  name_en: string;
  name_ja: string;
  players: string[];
  created: number;
  totals: number[] | null;
  winners: number[] | null;
  kept: boolean;
  page: string;
}

interface Me {
  id: string;
  name: string;
  created: number;
  games: MyGame[];
}

interface Line {
  games: number;
  wins: number;
  deals: number;
  average: number | null;
}

interface Stats {
  id: string;
  name: string;
  presets: {
    preset: string;
    name_en: string;
    name_ja: string;
    all: Line;
    bots: Line;
    people: Line;
    rating: { rank: number; of: number; rating: number; deviation: number } | null;
  }[];
}

interface Ranking {
  presets: {
    preset: string;
    name_en: string;
    name_ja: string;
    games: number;
    players: { rank: number; profile: string; name: string; rating: number; deviation: number; games: number; wins: number }[];
  }[];
}

/** The profile this browser keeps, if any. */
export function kept(): Kept | null {
  try {
    const v = JSON.parse(localStorage.getItem(STORAGE) ?? "null") as Kept | null;
    return v && typeof v.key === "string" && typeof v.id === "string" ? v : null;
  } catch {
    return null;
  }
}

function keep(p: Kept): void {
  localStorage.setItem(STORAGE, JSON.stringify(p));
}

async function call<T>(method: string, path: string, key: string | null, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (key) headers.Authorization = `Bearer ${key}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) throw await refusal(res);
  return (await res.json()) as T;
}

const readMe = (key: string) => call<Me>("GET", "/api/profiles/me", key);

function presetLabel(p: { name_en: string; name_ja: string; preset: string }): string {
  return (lang() === "ja" ? p.name_ja : p.name_en) || p.preset;
}

function number(n: number, digits = 0): string {
  return new Intl.NumberFormat(lang(), { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(n);
}

// While a seat comes back from the profile, saving its token is not a new seat to keep.
let restoring = false;

onTokenSaved((table, token) => {
  const p = kept();
  if (!p || restoring) return;
  // After the creating code has saved the table's invite secret too.
  window.setTimeout(() => {
    void call("POST", withKey(table, `/api/tables/${table}/profile`), p.key, { token, invite: savedKey(table) }).catch(() => undefined);
  }, 0);
});

/** Saves a seat of the profile's in this browser: its token, seat and invite secret. */
function restore(g: MyGame): void {
  if (!g.token) return;
  restoring = true;
  try {
    saveToken(g.table, g.token);
    saveSeat(g.table, g.seat);
    if (g.invite) saveKey(g.table, g.invite);
  } finally {
    restoring = false;
  }
}

/**
 * Before a table page opens: if this browser holds no seat there and its profile does, the
 * profile's seat comes back (opened on another device, or moved here by its link).
 */
export async function reclaim(table: string): Promise<void> {
  const p = kept();
  if (!p || savedToken(table)) return;
  try {
    const me = await readMe(p.key);
    const g = me.games.find((x) => x.table === table && x.kept && x.status !== "gone");
    if (g) restore(g);
  } catch {
    // The profile cannot be read now: the table opens as it would without one.
  }
}

function createForm(after: () => void): HTMLElement {
  const status = h("p", { class: "error", role: "alert" });
  const name = h("input", { name: "profile-name", maxlength: 24, required: true, autocomplete: "nickname", value: localStorage.getItem("torite-name") ?? "" }) as HTMLInputElement;
  const form = h("form", { class: "profile-create" },
    h("label", {}, h("span", {}, t("web-profile-name")), name),
    h("button", { type: "submit", class: "primary" }, t("web-profile-create")),
    h("p", { class: "muted" }, t("web-profile-create-help")),
    status) as HTMLFormElement;
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    status.textContent = "";
    try {
      const made = await call<Kept>("POST", "/api/profiles", null, { name: name.value });
      keep({ id: made.id, name: made.name, key: made.key });
      // The name tables are joined with, unless this browser has one already.
      if (!localStorage.getItem("torite-name")) localStorage.setItem("torite-name", made.name);
      after();
    } catch (e) {
      status.textContent = errorText(e);
    }
  });
  return form;
}

function statusText(g: MyGame): string {
  return t(`web-mine-status-${g.status}`);
}

function gameRow(g: MyGame, go: (path: string) => void): HTMLElement {
  const open = (ev: Event) => {
    ev.preventDefault();
    restore(g);
    go(g.page);
  };
  const winners = g.winners ?? [];
  const seats = g.players.map((name, i) => h("li", { class: `seat ${name ? "" : "empty"} ${i === g.seat ? "me" : ""} ${winners.includes(i) ? "winner" : ""}` },
    name ? nameEl(name, i === g.seat ? ` (${t("web-profile-you")})` : "") : t("web-empty-seat"),
    g.totals ? h("span", { class: "total" }, number(g.totals[i])) : null));
  const live = g.status === "open" || g.status === "playing";
  return h("article", { class: `table-row mine status-${g.status}`, "data-mine": g.table },
    h("header", {}, h("strong", {}, presetLabel(g)), " ", h("span", { class: "badge" }, statusText(g)),
      g.status === "finished" && winners.includes(g.seat) ? h("span", { class: "badge winner" }, t("web-mine-won")) : null),
    h("ul", { class: "seat-list" }, seats),
    g.status === "gone"
      ? null
      : h("div", { class: "row-links" },
          h("a", { href: g.page, class: "button mine-open", onclick: open }, live && g.kept ? t("web-mine-return") : t("web-view-table")),
          g.status === "finished" ? navLink(`${g.page}/history`, go, { class: "button history-link" }, t("web-history")) : null));
}

/** The finished games the lobby shows (the newest); the profile page lists them all. */
const LOBBY_FINISHED = 5;

/** The lobby's "my games": the profile's tables, playing and finished, or a way to make one. */
export function myGames(go: (path: string) => void): HTMLElement {
  const box = h("section", { class: "my-games" });
  const draw = async () => {
    const p = kept();
    if (!p) {
      clear(box, h("h2", {}, t("web-mine")), createForm(() => void draw()),
        h("p", {}, navLink("/ranking", go, { class: "ranking-link" }, t("web-ranking"))));
      return;
    }
    const head = h("p", { class: "mine-who" }, t("web-profile-as", { name: p.name }), " · ",
      navLink("/profile", go, { class: "profile-link" }, t("web-profile")), " · ",
      navLink("/ranking", go, { class: "ranking-link" }, t("web-ranking")));
    clear(box, h("h2", {}, t("web-mine")), head, h("p", { class: "muted" }, t("web-mine-loading")));
    try {
      const me = await readMe(p.key);
      if (me.name !== p.name) keep({ ...p, name: me.name });
      const playing = me.games.filter((g) => g.status === "open" || g.status === "playing");
      const finished = me.games.filter((g) => g.status === "finished");
      clear(box, h("h2", {}, t("web-mine")), head,
        me.games.length === 0 ? h("p", { class: "muted" }, t("web-mine-none")) : null,
        playing.length ? [h("h3", {}, t("web-mine-playing")), h("div", { class: "mine-list mine-playing" }, playing.map((g) => gameRow(g, go)))] : null,
        finished.length ? [h("h3", {}, t("web-mine-finished")), h("div", { class: "mine-list mine-finished" }, finished.slice(0, LOBBY_FINISHED).map((g) => gameRow(g, go)))] : null,
        finished.length > LOBBY_FINISHED ? h("p", {}, navLink("/profile", go, { class: "all-mine" }, t("web-mine-all", { count: me.games.length }))) : null);
    } catch (e) {
      clear(box, h("h2", {}, t("web-mine")), head, h("p", { class: "error", role: "alert" }, errorText(e)));
    }
  };
  void draw();
  return box;
}

/** The link that moves the profile: the key in the fragment, which no request carries. */
function moveLink(p: Kept): string {
  return `${location.origin}/profile/move#key=${encodeURIComponent(p.key)}`;
}

function statsTable(s: Stats["presets"][number]): HTMLElement {
  const row = (label: string, l: Line, cls: string) => h("tr", { class: cls },
    h("th", { scope: "row" }, label),
    h("td", {}, number(l.games)),
    h("td", {}, number(l.wins)),
    h("td", {}, l.average === null ? "—" : number(l.average, 1)));
  return h("section", { class: "stats-preset", "data-preset": s.preset },
    h("h3", {}, presetLabel(s)),
    s.rating
      ? h("p", { class: "rating" }, t("web-stats-rating", { rating: number(s.rating.rating), deviation: number(s.rating.deviation), rank: s.rating.rank, of: s.rating.of }))
      : h("p", { class: "muted rating" }, t("web-stats-unrated")),
    h("div", { class: "scroll" }, h("table", { class: "club-stats" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", { scope: "col" }, t("web-stats-games")), h("th", { scope: "col" }, t("web-stats-wins")), h("th", { scope: "col" }, t("web-stats-average")))),
      h("tbody", {}, row(t("web-stats-all"), s.all, "all"), row(t("web-stats-people"), s.people, "people"), row(t("web-stats-bots"), s.bots, "bots")))));
}

/** `/profile`: the profile, its statistics, and the link and QR code that move it. */
export async function renderProfile(root: HTMLElement, go: (path: string) => void): Promise<() => void> {
  const p = kept();
  if (!p) {
    clear(root, h("section", { class: "profile" }, h("h2", {}, t("web-profile")), createForm(() => go("/profile"))));
    return () => undefined;
  }
  const me = await readMe(p.key);
  const stats = await call<Stats>("GET", `/api/profiles/${me.id}/stats`, null);
  const link = moveLink(p);
  const linkInput = h("input", { class: "move-link", readonly: true, value: link, "aria-label": t("web-profile-move-link") }) as HTMLInputElement;
  const copied = h("span", { class: "muted copied", role: "status" });
  const qr = h("img", { class: "qr", alt: t("web-profile-qr-alt"), width: 240, height: 240 }) as HTMLImageElement;
  try {
    const res = await request("/api/qr", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ text: link }) });
    if (!res.ok) throw await refusal(res);
    qr.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(await res.text())}`;
  } catch (e) {
    qr.replaceWith(h("p", { class: "error" }, errorText(e)));
  }
  // The display name, changed here for every device and in the ranking.
  const renameStatus = h("p", { class: "error", role: "alert" });
  const newName = h("input", { name: "new-name", maxlength: 24, required: true, value: me.name, autocomplete: "nickname", "aria-label": t("web-profile-name") }) as HTMLInputElement;
  const rename = h("form", { class: "profile-create profile-rename" },
    h("label", {}, h("span", {}, t("web-profile-name")), newName),
    h("button", { type: "submit" }, t("web-profile-rename")),
    renameStatus) as HTMLFormElement;
  rename.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    renameStatus.textContent = "";
    try {
      const done = await call<{ name: string }>("POST", "/api/profiles/me", p.key, { name: newName.value });
      keep({ ...p, name: done.name });
      go("/profile");
    } catch (e) {
      renameStatus.textContent = errorText(e);
    }
  });
  const forget = h("button", {
    type: "button",
    class: "forget",
    onclick: () => {
      if (!confirm(t("web-profile-forget-confirm"))) return;
      localStorage.removeItem(STORAGE);
      go("/profile");
    },
  }, t("web-profile-forget"));
  clear(root, h("section", { class: "profile" },
    h("h2", {}, t("web-profile"), ": ", nameEl(me.name)),
    h("p", {}, navLink("/ranking", go, { class: "ranking-link" }, t("web-ranking")), " · ", navLink("/", go, {}, t("web-lobby"))),
    rename,
    h("h3", {}, t("web-mine")),
    me.games.length ? h("div", { class: "mine-list mine-all" }, me.games.map((g) => gameRow(g, go))) : h("p", { class: "muted" }, t("web-mine-none")),
    h("h3", {}, t("web-stats")),
    stats.presets.length ? stats.presets.map(statsTable) : h("p", { class: "muted no-stats" }, t("web-stats-none")),
    h("section", { class: "move" },
      h("h3", {}, t("web-profile-move")),
      h("p", { class: "muted" }, t("web-profile-move-help")),
      h("div", { class: "move-row" }, linkInput, h("button", {
        type: "button",
        class: "copy",
        onclick: async () => {
          linkInput.select();
          try {
            await navigator.clipboard.writeText(link);
            copied.textContent = t("web-profile-copied");
          } catch {
            copied.textContent = t("web-profile-copy-by-hand");
          }
        },
      }, t("web-profile-copy")), copied),
      qr),
    h("p", {}, forget)));
  return () => undefined;
}

/** `/profile/move#key=…`: the page a profile's link opens; it installs the profile here. */
export async function renderMove(root: HTMLElement, go: (path: string) => void): Promise<() => void> {
  const key = new URLSearchParams(location.hash.replace(/^#/, "")).get("key") ?? "";
  const section = h("section", { class: "profile move-in" }, h("h2", {}, t("web-profile-move-in")));
  clear(root, section);
  let me: Me;
  try {
    me = await readMe(key);
  } catch (e) {
    section.append(h("p", { class: "error", role: "alert" }, errorText(e)), h("p", {}, navLink("/", go, {}, "← ", t("web-lobby"))));
    return () => undefined;
  }
  const before = kept();
  section.append(
    h("p", { class: "move-who" }, t("web-profile-move-who"), " ", nameEl(me.name)),
    before && before.id !== me.id ? h("p", { class: "banner" }, t("web-profile-move-replaces", { name: before.name })) : "",
    h("button", {
      type: "button",
      class: "primary use-profile",
      onclick: () => {
        keep({ id: me.id, name: me.name, key });
        // The key leaves the address bar (and the history) once it is kept.
        history.replaceState(null, "", "/profile");
        go("/");
      },
    }, t("web-profile-use")));
  return () => undefined;
}

/** `/ranking`: each preset's Glicko-2 ranking of games between people with profiles. */
export async function renderRanking(root: HTMLElement, go: (path: string) => void): Promise<() => void> {
  const ranking = await call<Ranking>("GET", "/api/ranking", null);
  const mine = kept()?.id;
  clear(root, h("section", { class: "ranking" },
    h("h2", {}, t("web-ranking")),
    h("p", { class: "muted" }, t("web-ranking-help")),
    ranking.presets.length === 0 ? h("p", { class: "muted no-ranking" }, t("web-ranking-none")) : null,
    ranking.presets.map((p) => h("section", { class: "ranking-preset", "data-preset": p.preset },
      h("h3", {}, presetLabel(p), " ", h("span", { class: "muted" }, t("web-ranking-games", { count: p.games }))),
      h("div", { class: "scroll" }, h("table", { class: "club-stats ranking-table" },
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, t("web-ranking-rank")),
          h("th", { scope: "col", class: "who" }, t("web-ranking-player")),
          h("th", { scope: "col" }, t("web-ranking-rating")),
          h("th", { scope: "col" }, t("web-stats-games")),
          h("th", { scope: "col" }, t("web-stats-wins")))),
        h("tbody", {}, p.players.map((r) => h("tr", { class: r.profile === mine ? "me" : "", "data-profile": r.profile },
          h("td", {}, number(r.rank)),
          h("td", { class: "who" }, nameEl(r.name, r.profile === mine ? ` (${t("web-profile-you")})` : "")),
          h("td", { class: "rating" }, number(r.rating), h("small", { class: "muted" }, ` ±${number(r.deviation)}`)),
          h("td", {}, number(r.games)),
          h("td", {}, number(r.wins))))))))),
    h("p", {}, navLink("/", go, {}, "← ", t("web-lobby")))));
  return () => undefined;
}
