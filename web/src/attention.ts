// Telling a person that something happened at the table while they look elsewhere: the tab's
// title and icon while it is their turn, and optional sounds (made with the Web Audio API, off
// by default, the choice kept in localStorage) with a short vibration on phones that allow it.

const SOUND_KEY = "torite-sound";

/** Whether this browser has chosen to hear the table's sounds. */
export function soundOn(): boolean {
  return localStorage.getItem(SOUND_KEY) === "on";
}

/** Remembers the choice of sounds. */
export function setSound(on: boolean): void {
  localStorage.setItem(SOUND_KEY, on ? "on" : "off");
  if (on) void audio()?.resume();
}

let context: AudioContext | null = null;
function audio(): AudioContext | null {
  if (!context && typeof AudioContext !== "undefined") context = new AudioContext();
  return context;
}

/** A short tone, shaped so that it does not click: `freq` Hz, starting `at` s from now. */
function tone(ctx: AudioContext, freq: number, at: number, length: number, gain: number, type: OscillatorType): void {
  const osc = ctx.createOscillator();
  const env = ctx.createGain();
  osc.type = type;
  osc.frequency.value = freq;
  const start = ctx.currentTime + at;
  env.gain.setValueAtTime(0, start);
  env.gain.linearRampToValueAtTime(gain, start + 0.01);
  env.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(env).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

/** The sound of a card put on the table: a soft low tap. */
export function cardSound(): void {
  if (!soundOn()) return;
  const ctx = audio();
  if (!ctx) return;
  tone(ctx, 180, 0, 0.08, 0.25, "triangle");
}

/** The sound of one's turn: two rising notes. */
export function turnSound(): void {
  if (!soundOn()) return;
  const ctx = audio();
  if (!ctx) return;
  tone(ctx, 660, 0, 0.15, 0.18, "sine");
  tone(ctx, 880, 0.14, 0.22, 0.18, "sine");
}

/** The tab's icon: a felt-green disc, with an orange mark while it is the reader's turn. */
function icon(turn: boolean): string {
  const mark = turn ? `<circle cx='24' cy='8' r='7' fill='%23d9822b' stroke='white' stroke-width='2'/>` : "";
  return `data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'><ellipse cx='16' cy='18' rx='15' ry='12' fill='%231d5b3a'/>${mark}</svg>`;
}

function iconLink(): HTMLLinkElement {
  let link = document.querySelector<HTMLLinkElement>("link[rel=icon]");
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.append(link);
  }
  return link;
}

/**
 * The tab's title and icon for whose turn it is: while `turn`, the title starts with `says`
 * and the icon carries a mark; otherwise the page's own title (`base`) and the plain icon.
 * Returns whether the turn has just begun (it was not the turn before).
 */
export function markTurn(turn: boolean, says: string, base: string, was: boolean): boolean {
  const title = turn ? `● ${says} — ${base}` : base;
  if (document.title !== title) document.title = title;
  const href = icon(turn);
  const link = iconLink();
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
  if (turn && !was) {
    turnSound();
    try {
      // Phones that allow it (after the person has touched the page); others ignore it.
      if (soundOn()) navigator.vibrate?.(120);
    } catch {
      // not allowed here
    }
    return true;
  }
  return false;
}
