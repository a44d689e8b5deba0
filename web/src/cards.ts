// Card codes (AS, TH, JK) as people read them.
import { t } from "./i18n";

const SYMBOL: Record<string, string> = { S: "♠", H: "♥", D: "♦", C: "♣" };

export function suitOf(code: string): string | null {
  return code === "JK" ? null : code.slice(-1);
}

export function rankLabel(code: string): string {
  if (code === "JK") return "★";
  const r = code.slice(0, -1);
  return r === "T" ? "10" : r;
}

export function cardLabel(code: string): string {
  if (code === "JK") return t("joker");
  return rankLabel(code) + (SYMBOL[code.slice(-1)] ?? code.slice(-1));
}

export function suitSymbol(s: string): string {
  return SYMBOL[s] ?? s;
}

export function suitName(s: string): string {
  return t(`suit-${s}`);
}

/** A card face as an element (a button when `onClick` is given). */
export function cardEl(code: string, opts: { onClick?: () => void; disabled?: boolean; selected?: boolean; small?: boolean } = {}): HTMLElement {
  const el = document.createElement(opts.onClick ? "button" : "span");
  el.className = "card";
  const suit = suitOf(code);
  el.classList.add(suit ? `suit-${suit}` : "joker");
  if (opts.small) el.classList.add("small");
  if (opts.selected) el.classList.add("selected");
  el.dataset.card = code;
  el.setAttribute("aria-label", cardLabel(code));
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = rankLabel(code);
  el.append(rank);
  if (suit) {
    const s = document.createElement("span");
    s.className = "suit";
    s.textContent = SYMBOL[suit] ?? suit;
    el.append(s);
  }
  if (opts.onClick) {
    const b = el as HTMLButtonElement;
    b.type = "button";
    b.disabled = !!opts.disabled;
    b.addEventListener("click", opts.onClick);
  }
  return el;
}
