// The lobby: tables to join or watch, and a form to create one from any preset with house rules.
import { duplicateLink } from "./duplicate";
import { DEFAULT_LEVEL, api, errorText, presets, saveKey, saveName, saveSeat, saveToken, savedName, savedToken, type Preset, type TableSummary } from "./api";
import { clear, h, nameEl, navLink } from "./dom";
import { has, lang, t } from "./i18n";
import { myGames } from "./profile";

const CHOICES: Record<string, string[]> = {
  lot_timing: ["first-card", "before-lead"],
  follow: ["must-follow", "jass", "handjass"],
};

/** Options whose few numeric values are offered as words (`the 2`, `the 9`). */
const NUMBER_CHOICES: Record<string, number[]> = {
  low_card: [2, 9],
};

/** An option's label from the catalogs (`option-{name}`), its name where they have none. */
export function optionLabel(name: string): string {
  return has(`option-${name}`) ? t(`option-${name}`) : name;
}

/** An option's one-line explanation (`option-{name}-help`), or nothing. */
export function optionHelp(name: string): HTMLElement | null {
  return has(`option-${name}-help`) ? h("small", { class: "muted option-help" }, t(`option-${name}-help`)) : null;
}

/** A choice of an option in words (`option-{name}-{value}`), the value where none are given. */
function choiceLabel(name: string, value: string): string {
  const key = `option-${name}-${value}`;
  return has(key) ? t(key) : value;
}

/** A house rule in words: the option's label and its value (`Number of deals: 1 deal`). */
export function houseRuleText(name: string, value: unknown): string {
  return `${optionLabel(name)}: ${optionWords(name, value)}`;
}

/** An option's value in words (`1 deal`, `with the first card`). */
export function optionWords(name: string, value: unknown): string {
  if (value === null) return has(`option-${name}-none`) ? t(`option-${name}-none`) : "—";
  if (typeof value === "number" && has(`option-${name}-value`)) return t(`option-${name}-value`, { value });
  return choiceLabel(name, String(value));
}

export function presetName(p: Preset | undefined, fallback: string): string {
  if (!p) return fallback;
  return lang() === "ja" ? p.name_ja : p.name_en;
}

function optionInput(name: string, value: unknown): HTMLElement {
  // A yes-or-no option is a choice of its values in words, as every other option is.
  if (typeof value === "boolean") {
    return h("select", { name, "data-kind": "bool" },
      [true, false].map((b) => h("option", { value: String(b), selected: b === value }, choiceLabel(name, String(b)))));
  }
  if (NUMBER_CHOICES[name]) {
    return h("select", { name, "data-kind": "number" },
      NUMBER_CHOICES[name].map((n) => h("option", { value: String(n), selected: n === value }, choiceLabel(name, String(n)))));
  }
  if (CHOICES[name]) {
    return h(
      "select",
      { name, "data-kind": "string" },
      CHOICES[name].map((c) => h("option", { value: c, selected: c === value }, choiceLabel(name, c))),
    );
  }
  if (typeof value === "number" || value === null) {
    return h("input", { type: "number", name, "data-kind": "number", min: 0, value: value === null ? "" : String(value), inputmode: "numeric" });
  }
  return h("input", { type: "text", name, "data-kind": "string", value: String(value) });
}

function readOptions(form: HTMLElement, preset: Preset): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  form.querySelectorAll<HTMLInputElement | HTMLSelectElement>("[data-option] [name]").forEach((el) => {
    const kind = el.dataset.kind;
    let v: unknown;
    if (kind === "bool") v = el instanceof HTMLSelectElement ? el.value === "true" : (el as HTMLInputElement).checked;
    else if (kind === "number") v = el.value === "" ? null : Number(el.value);
    else v = el.value;
    if (JSON.stringify(v) !== JSON.stringify(preset.options[el.name])) out[el.name] = v;
  });
  const deals = (form.querySelector("[name=deals]:not([data-kind])") as HTMLInputElement | null)?.value;
  if (deals) {
    delete out.target;
    out.deals = Number(deals);
  }
  return out;
}

/** The lobby's filters of the table list. */
type Filter = "all" | "open" | "playing" | "finished";
const FILTERS: Filter[] = ["all", "open", "playing", "finished"];
/** Tables per page of the list. */
const PAGE = 10;

/** Whether the table is listed under `filter` ("open": a seat is still free). */
function shows(filter: Filter, tb: TableSummary): boolean {
  if (filter === "all") return true;
  if (filter === "open") return tb.status === "open" && tb.seats.some((s) => s.kind === "empty");
  return tb.status === filter;
}

export async function renderLobby(root: HTMLElement, go: (path: string) => void): Promise<() => void> {
  const [list, bots] = await Promise.all([presets(), api.bots()]);
  const status = h("p", { class: "error", role: "alert" });
  const tables = h("div", { class: "tables" });
  const optionsBox = h("fieldset", { class: "options" });
  const presetSelect = h(
    "select",
    { name: "preset", id: "preset" },
    list.map((p) => h("option", { value: p.id }, presetName(p, p.id))),
  ) as HTMLSelectElement;
  const nameInput = h("input", { name: "name", id: "name", maxlength: 24, required: true, value: savedName(), autocomplete: "nickname" }) as HTMLInputElement;
  const timerInput = h("input", { name: "timer", id: "timer", type: "number", min: 5, max: 3600, inputmode: "numeric" }) as HTMLInputElement;
  const fill = h(
    "select",
    { name: "fill", id: "fill" },
    h("option", { value: "" }, t("web-fill-none")),
    bots.map((b) => h("option", { value: b.id, selected: b.id === DEFAULT_LEVEL, title: b.description }, b.name)),
  ) as HTMLSelectElement;
  // The chosen level's one-line description, under the control.
  const fillHelp = h("small", { class: "muted level-help" });
  const showLevel = () => {
    fillHelp.textContent = bots.find((b) => b.id === fill.value)?.description ?? "";
  };
  fill.addEventListener("change", showLevel);
  showLevel();
  const startNow = h("input", { type: "checkbox", name: "start", id: "start", checked: true }) as HTMLInputElement;
  // Public (listed here, anyone may take a seat) or private (only through the invite link).
  const privateBox = h("input", { type: "checkbox", name: "private", id: "private" }) as HTMLInputElement;

  // The preset's rules and printable sheets; the link follows the chosen preset.
  const rulesLink = navLink(`/rules/${presetSelect.value}`, go, { class: "button small rules-link" }, t("web-rules"));
  const showOptions = () => {
    const p = list.find((x) => x.id === presetSelect.value)!;
    rulesLink.setAttribute("href", `/rules/${p.id}`);
    clear(
      optionsBox,
      h("legend", {}, t("web-options")),
      // A choice in words ("with the first card (current rules)") takes the whole row, so that
      // whichever is chosen reads in full in its closed control; numbers go two to a row.
      Object.entries(p.options).map(([k, v]) => {
        const input = optionInput(k, v);
        return h("label", { "data-option": k, class: input.tagName === "SELECT" ? "wide" : null }, h("span", {}, optionLabel(k)), input, optionHelp(k));
      }),
      // A fixed number of deals instead of a target (a preset with a number of deals has
      // the option above already).
      "deals" in p.options ? null : h("label", {}, h("span", {}, optionLabel("deals")), h("input", { type: "number", name: "deals", min: 1, inputmode: "numeric", placeholder: "—" }), optionHelp("deals")),
    );
  };
  presetSelect.addEventListener("change", showOptions);
  showOptions();

  const form = h(
    "form",
    { class: "create", id: "create" },
    h("h2", {}, t("web-new-table")),
    h("label", {}, h("span", {}, t("web-ruleset")), h("span", { class: "with-link" }, presetSelect, rulesLink)),
    h("label", {}, h("span", {}, t("web-your-name")), nameInput),
    optionsBox,
    h("label", {}, h("span", {}, t("web-timer")), timerInput),
    h("label", {}, h("span", {}, t("web-fill")), fill, fillHelp),
    h("label", { class: "inline" }, startNow, h("span", {}, t("web-start-now"))),
    h("label", { class: "inline private-choice" }, privateBox,
      h("span", {}, t("web-private"), h("small", { class: "muted option-help" }, t("web-private-help")))),
    h("button", { type: "submit", class: "primary" }, t("web-create")),
    status,
  ) as HTMLFormElement;
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    status.textContent = "";
    const p = list.find((x) => x.id === presetSelect.value)!;
    const overrides = readOptions(form, p);
    const ruleset = Object.keys(overrides).length ? { base: p.id, ...overrides } : p.id;
    const body: Record<string, unknown> = { ruleset, name: nameInput.value };
    if (timerInput.value) body.timer = Number(timerInput.value);
    if (privateBox.checked) body.private = true;
    if (fill.value) {
      body.fill = fill.value;
      body.start = startNow.checked;
    }
    try {
      const made = await api.create(body);
      saveName(nameInput.value);
      saveToken(made.id, made.token);
      saveSeat(made.id, made.seat);
      if (made.key) saveKey(made.id, made.key);
      go(`/t/${made.id}`);
    } catch (e) {
      status.textContent = errorText(e);
    }
  });

  const filters = h("div", { class: "filters", role: "group", "aria-label": t("web-tables") });
  const pager = h("nav", { class: "pager" });
  let filter: Filter = "all";
  let page = 0;

  // Shown above the list while the server cannot be reached (the list is then the last one seen).
  const unreachable = h("p", { class: "banner conn-banner", role: "status", hidden: true });
  const refresh = async () => {
    let all: TableSummary[];
    try {
      all = await api.tables();
    } catch (e) {
      unreachable.textContent = errorText(e);
      unreachable.hidden = false;
      return;
    }
    unreachable.hidden = true;
    // The list filtered (open seats, playing, finished) and paged, the choice kept while the
    // list refreshes.
    const counts = new Map<Filter, number>(FILTERS.map((f) => [f, all.filter((tb) => shows(f, tb)).length]));
    const shown = all.filter((tb) => shows(filter, tb));
    const pages = Math.max(1, Math.ceil(shown.length / PAGE));
    page = Math.min(page, pages - 1);
    clear(filters, FILTERS.map((f) => h("button", {
      type: "button", class: `small filter ${f === filter ? "primary" : ""}`, "data-filter": f, "aria-pressed": f === filter ? "true" : "false",
      onclick: () => {
        filter = f;
        page = 0;
        void refresh();
      },
    }, t(`web-filter-${f}`, { count: counts.get(f) ?? 0 }))));
    clear(pager, pages > 1
      ? [
          h("button", { type: "button", class: "small prev", disabled: page === 0, onclick: () => { page--; void refresh(); } }, "← ", t("web-page-prev")),
          h("span", { class: "muted page-of" }, t("web-page", { page: page + 1, pages })),
          h("button", { type: "button", class: "small next", disabled: page >= pages - 1, onclick: () => { page++; void refresh(); } }, t("web-page-next"), " →"),
        ]
      : []);
    const rows = shown.slice(page * PAGE, (page + 1) * PAGE).map((tb) => {
      const p = list.find((x) => x.id === tb.base);
      const mine = savedToken(tb.id) !== null;
      const seats = tb.seats.map((s, i) => {
        if (s.kind === "empty") {
          if (tb.status !== "open") return h("li", { class: "seat empty" }, t("web-empty-seat"));
          return h(
            "li",
            { class: "seat empty" },
            h("button", {
              type: "button",
              class: "join",
              "data-seat": i,
              onclick: async () => {
                const name = nameInput.value.trim() || prompt(t("web-your-name")) || "";
                if (!name) return;
                try {
                  const j = await api.join(tb.id, i, name);
                  saveName(name);
                  saveToken(tb.id, j.token);
                  saveSeat(tb.id, i);
                  go(`/t/${tb.id}`);
                } catch (e) {
                  status.textContent = errorText(e);
                }
              },
            }, t("web-seat-taken", { seat: i + 1 })),
          );
        }
        const away = s.kind === "human" && !s.connected;
        return h("li", { class: `seat ${s.kind} ${away ? "away" : ""}`, title: away ? t("web-away") : null },
          nameEl(s.kind === "bot" ? bots.find((b) => b.id === s.bot)?.name ?? s.name : s.name, s.kind === "bot" ? ` (${t("web-bot")})` : s.kind === "human" && s.connected ? " ●" : ""));
      });
      return h(
        "article",
        { class: `table-row status-${tb.status}`, "data-table": tb.id },
        h("header", {}, h("strong", {}, presetName(p, tb.base)), " ", h("span", { class: "badge" }, t(`web-status-${tb.status}`)),
          tb.deals ? h("span", { class: "muted" }, " · ", t("web-deals-played", { count: tb.deals })) : null),
        typeof tb.ruleset === "object" && tb.ruleset
          ? h("p", { class: "muted house-rules" }, t("web-options"), ": ",
              Object.entries(tb.ruleset).filter(([k]) => k !== "base").map(([k, v]) => houseRuleText(k, v)).join(", "))
          : null,
        h("ul", { class: "seat-list" }, seats),
        h("div", { class: "row-links" },
          navLink(`/t/${tb.id}`, go, { class: "button" }, tb.status === "finished" ? t("web-view-table") : mine ? t("web-join") : t("web-watch")),
          tb.status === "finished" ? navLink(`/t/${tb.id}/history`, go, { class: "button history-link" }, t("web-history")) : null,
          navLink(`/t/${tb.id}/rules`, go, { class: "button small rules-link" }, t("web-rules"))),
      );
    });
    clear(tables, rows.length ? rows : h("p", { class: "muted" }, t("web-no-tables")));
  };
  await refresh();
  const timer = window.setInterval(refresh, 4000);
  form.append(duplicateLink(go));
  clear(
    root,
    h("section", { class: "lobby" },
      // The form first: on a phone it is at the top, above however many tables there are.
      form,
      myGames(go),
      h("div", { class: "list" }, h("h2", {}, t("web-tables"), " ", h("button", { type: "button", class: "small", onclick: refresh }, t("web-refresh"))),
        filters, unreachable, tables, pager)),
  );
  return () => window.clearInterval(timer);
}
