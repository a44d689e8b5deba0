// The browser client of torite's online play: the lobby at `/`, a table at `/t/{id}`, its
// rules and printable sheets at `/t/{id}/rules` (a preset's at `/rules/{id}`), a finished
// game's history at `/t/{id}/history` and its replay at `/t/{id}/replay`; the player profile at
// `/profile` (moved to another device by `/profile/move#key=…`) and the ranking at `/ranking`.
import "./style.css";
import { errorText, saveKey } from "./api";
import { renderDuplicate, renderDuplicateNew } from "./duplicate";
import { clear, h } from "./dom";
import { renderHistory, renderReplay } from "./history";
import { lang, loadLang, preferredLang, preloadLang, t, type Lang } from "./i18n";
import { renderLobby } from "./lobby";
import { reclaim, renderMove, renderProfile, renderRanking } from "./profile";
import { renderRules } from "./rules";
import { renderScore, renderScoreNew } from "./score";
import { renderTable } from "./table";

const app = document.getElementById("app")!;
const header = h("header", { class: "top" });
const main = h("main", {});
app.append(header, main);

let cleanup: (() => void) | null = null;

function go(path: string): void {
  if (location.pathname + location.search !== path) history.pushState(null, "", path);
  window.scrollTo(0, 0);
  void route();
}

function renderHeader(): void {
  const other: Lang = lang() === "ja" ? "en" : "ja";
  clear(
    header,
    h("a", { href: "/", class: "brand", onclick: (e: Event) => { e.preventDefault(); go("/"); } }, t("app-title")),
    h("a", { href: "/score/new", class: "keep-score", onclick: (e: Event) => { e.preventDefault(); go("/score/new"); } }, t("web-score-keep")),
    h("button", {
      type: "button",
      class: "lang small",
      "data-lang": other,
      onclick: async () => {
        try {
          await loadLang(other);
        } catch {
          // The server cannot be reached and the catalog was not fetched before: stay as is.
          return;
        }
        void route();
      },
    }, other === "ja" ? "日本語" : "English"),
  );
}

let routing = 0;

async function route(): Promise<void> {
  const mine = ++routing;
  // Marks the page drawn (for tests: a page still loading may not answer keys yet).
  delete document.body.dataset.ready;
  cleanup?.();
  cleanup = null;
  renderHeader();
  const path = location.pathname;
  const table = path.match(/^\/t\/([0-9a-f]+)(?:\/(rules|history|replay))?\/?$/);
  const preset = path.match(/^\/rules\/([a-z0-9-]+)\/?$/);
  const score = path.match(/^\/score\/(new|[0-9a-f]+)(\/view)?\/?$/);
  const duplicate = path.match(/^\/duplicate\/(new|[0-9a-f]+)\/?$/);
  document.title = table ? `torite — ${table[1]}` : "torite";
  // A private table's invite link carries its secret: kept for every request about the table.
  const key = new URLSearchParams(location.search).get("key");
  if (table && key && /^[0-9a-f]{32}$/.test(key)) saveKey(table[1], key);
  // Each page draws into its own element, so a page still loading when another is asked
  // for draws nowhere visible.
  const view = h("div", { class: "view" });
  clear(main, view);
  let done: (() => void) | null = null;
  try {
    if (table && !table[2]) {
      // A seat the player profile holds comes back on this device before the table opens.
      await reclaim(table[1]);
      if (mine !== routing) return;
      done = renderTable(view, table[1], go);
    } else if (table && table[2] === "rules") {
      done = await renderRules(view, { table: table[1] }, go);
    } else if (table && table[2] === "history") {
      done = await renderHistory(view, table[1], go);
    } else if (table && table[2] === "replay") {
      done = await renderReplay(view, table[1], go);
    } else if (score && score[1] === "new") {
      done = await renderScoreNew(view, go);
    } else if (score) {
      done = await renderScore(view, score[1], Boolean(score[2]), go);
    } else if (duplicate && duplicate[1] === "new") {
      done = await renderDuplicateNew(view, go);
    } else if (duplicate) {
      done = await renderDuplicate(view, duplicate[1], go);
    } else if (path === "/profile") {
      done = await renderProfile(view, go);
    } else if (path === "/profile/move") {
      done = await renderMove(view, go);
    } else if (path === "/ranking") {
      done = await renderRanking(view, go);
    } else if (preset) {
      done = await renderRules(view, { preset: preset[1] }, go);
    } else {
      done = await renderLobby(view, go);
    }
  } catch (e) {
    if (mine !== routing) return;
    clear(view, h("section", { class: "game-over" },
      h("h2", {}, t("web-error", { message: errorText(e) })),
      h("p", {}, h("a", { href: "/", onclick: (ev: Event) => { ev.preventDefault(); go("/"); } }, "← ", t("web-lobby")))));
  }
  // Another page was asked for while this one loaded: it has the screen now.
  if (mine !== routing) done?.();
  else {
    cleanup = done;
    document.body.dataset.ready = "1";
  }
}

window.addEventListener("popstate", () => void route());

loadLang(preferredLang())
  .catch(() => loadLang("en"))
  .catch(() => undefined)
  .then(() => {
    preloadLang(lang() === "ja" ? "en" : "ja");
    return route();
  });
