// The browser client of torite's online play: the lobby at `/`, a table at `/t/{id}`.
import "./style.css";
import { clear, h } from "./dom";
import { lang, loadLang, preferredLang, t, type Lang } from "./i18n";
import { renderLobby } from "./lobby";
import { renderTable } from "./table";

const app = document.getElementById("app")!;
const header = h("header", { class: "top" });
const main = h("main", {});
app.append(header, main);

let cleanup: (() => void) | null = null;

function go(path: string): void {
  if (location.pathname !== path) history.pushState(null, "", path);
  void route();
}

function renderHeader(): void {
  const other: Lang = lang() === "ja" ? "en" : "ja";
  clear(
    header,
    h("a", { href: "/", class: "brand", onclick: (e: Event) => { e.preventDefault(); go("/"); } }, t("app-title")),
    h("button", {
      type: "button",
      class: "lang small",
      "data-lang": other,
      onclick: async () => {
        await loadLang(other);
        void route();
      },
    }, other === "ja" ? "日本語" : "English"),
  );
}

async function route(): Promise<void> {
  cleanup?.();
  cleanup = null;
  renderHeader();
  const m = location.pathname.match(/^\/t\/([0-9a-f]+)$/);
  if (m) {
    document.title = `torite — ${m[1]}`;
    cleanup = renderTable(main, m[1], go);
  } else {
    document.title = "torite";
    try {
      cleanup = await renderLobby(main, go);
    } catch (e) {
      clear(main, h("p", { class: "error" }, (e as Error).message));
    }
  }
}

window.addEventListener("popstate", () => void route());

loadLang(preferredLang())
  .catch(() => loadLang("en"))
  .then(route);
