// The server's HTTP API (docs/PROTOCOL.md).
import type { FluentVariable } from "@fluent/bundle";
import { has, lang, t } from "./i18n";

export interface Preset {
  id: string;
  players: number;
  name_en: string;
  name_ja: string;
  options: Record<string, unknown>;
}

export interface SeatSummary {
  name: string;
  kind: "empty" | "human" | "bot";
  bot: string | null;
  connected: boolean;
  /** Since when a person has had no connection (ms since the epoch, server clock); else null. */
  absent_since?: number | null;
}

export interface TableSummary {
  id: string;
  ruleset: string | Record<string, unknown>;
  base: string;
  players: number;
  status: "open" | "playing" | "finished";
  seats: SeatSummary[];
  created: number;
  timer: number | null;
  deals: number;
  /** How long a person must have been absent before the host may give the seat to a bot. */
  replace_after_ms?: number;
}

/**
 * A refused request: the HTTP status (0 when the server could not be reached), the server's
 * one-line `error` message, its `code` when it gives one, and the whole JSON body.
 */
export class ApiError extends Error {
  public code: string | null;
  constructor(public status: number, message: string, public body: Record<string, unknown> | null = null) {
    super(message);
    this.code = typeof body?.code === "string" ? body.code : status === 0 ? "network" : null;
  }
}

/** Statuses whose meaning says everything a person needs, whatever the server's words. */
const STATUS_MESSAGES = new Set([413, 415, 429]);

/**
 * A refusal's words in the reader's language, from its `code` and `args` (docs/PROTOCOL.md,
 * "Errors"): the client's own `web-err-{code}` where it has one, else the server's message
 * `err-{code}` with its arguments (an argument `{"key": "suit-H"}` is that message's words);
 * null for a code the catalogs do not know.
 */
export function refusalText(code: unknown, args: unknown): string | null {
  if (typeof code !== "string" || !code) return null;
  if (has(`web-err-${code}`)) return t(`web-err-${code}`);
  if (!has(`err-${code}`)) return null;
  const values: Record<string, FluentVariable> = {};
  if (args && typeof args === "object" && !Array.isArray(args)) {
    for (const [name, value] of Object.entries(args as Record<string, unknown>)) {
      if (typeof value === "string" || typeof value === "number") {
        values[name] = value;
      } else if (value && typeof value === "object" && typeof (value as { key?: unknown }).key === "string") {
        values[name] = t((value as { key: string }).key);
      }
    }
  }
  return t(`err-${code}`, values);
}

/**
 * What to tell a person about a failure, in their language: the catalog's words for the
 * server's `code` and `args`, or for a status that speaks for itself (too large, too many
 * requests…), otherwise the server's own one-line message (a code this client does not know
 * yet); never a raw body.
 */
export function errorText(e: unknown): string {
  if (e instanceof ApiError) {
    const words = refusalText(e.code, e.body?.args);
    if (words) return words;
    if (STATUS_MESSAGES.has(e.status)) return t(`web-err-${e.status}`);
    if (e.message) return e.message;
    return t(e.status >= 500 ? "web-err-server" : "web-err-status", { status: e.status });
  }
  if (e instanceof Error && e.message) return e.message;
  return t("web-err-status", { status: 0 });
}

/** A finished game step by step (`GET /api/tables/{id}/replay`), computed by the server. */
export interface Replay {
  id: string;
  ruleset: string | Record<string, unknown>;
  base: string;
  house_rules: Record<string, unknown>;
  players: string[];
  deals: ReplayDeal[];
  totals: number[];
  winners: number[];
  held: number;
  trumps: boolean;
}

export interface ReplayDeal {
  dealer: number;
  hands: string[][];
  first: number;
  start_trump: string | null;
  steps: ReplayStep[];
  tricks: { leader: number; cards: string[]; winner: number }[];
  trump: string | null;
  lot: { declarers: number[]; success: boolean } | null;
  tricks_won: number[];
  points: number[];
  scores: number[];
  totals: number[];
  rule: string;
  draw: number | null;
}

export interface ReplayStep {
  seat: number;
  action: string;
  trick: number;
  winner?: number;
  to_act: number | null;
  trump: string | null;
  lot: { declarers: number[]; failed: number[] };
  tricks_won: number[];
  points: number[];
}

export type SheetKind = "rules" | "scores" | "scorepad" | "compare";

/** The address of a printable sheet of a preset (`preset`) or of a table's own rules. */
export function sheetUrl(target: { preset: string } | { table: string }, kind: SheetKind, lang: string, format: "html" | "pdf"): string {
  const base = "preset" in target ? `/api/presets/${target.preset}` : `/api/tables/${target.table}`;
  const url = `${base}/sheet?kind=${kind}&lang=${lang}&format=${format}`;
  return "table" in target ? withKey(target.table, url) : url;
}

/** A fetch that throws an `ApiError` (status 0, code "network") when the server is unreachable. */
export async function request(path: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(path, init);
  } catch {
    throw new ApiError(0, "", null);
  }
}

/** A response's JSON body, or null when it has none (or is not JSON: a proxy's error page). */
export async function jsonBody(res: Response): Promise<unknown> {
  const text = await res.text().catch(() => "");
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** The `ApiError` a refused response stands for. */
export async function refusal(res: Response): Promise<ApiError> {
  const data = await jsonBody(res);
  const body = data && typeof data === "object" && !Array.isArray(data) ? (data as Record<string, unknown>) : null;
  const msg = typeof body?.error === "string" ? body.error : "";
  return new ApiError(res.status, msg, body);
}

/** A named bot level a seat can be given (`GET /api/bots`), weakest first. */
export interface BotLevel {
  id: string;
  name: string;
  description: string;
}

/**
 * A bot's name for people, from its spec as the server gives it (`club`, `heuristic`,
 * `ismcts:2000`): a level's name, or what the algorithm is in words; never the spec itself.
 */
export function botName(spec: string, levels: BotLevel[]): string {
  const level = levels.find((l) => l.id === spec);
  if (level) return level.name;
  const algorithm = spec.split(":")[0];
  return has(`web-bot-${algorithm}`) ? t(`web-bot-${algorithm}`) : t("web-bot");
}

/** Whether a recorded player's name is an algorithm's spec (`heuristic`, `ismcts:2000`). */
export function isBotSpec(name: string): boolean {
  const [algorithm, budget] = name.split(":");
  return has(`web-bot-${algorithm}`) && (budget === undefined || /^\d+(ms)?$/.test(budget));
}

/** The level a bot control offers first. */
export const DEFAULT_LEVEL = "club";

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await request(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw await refusal(res);
  return (await jsonBody(res)) as T;
}

export const api = {
  presets: () => call<Preset[]>("GET", "/api/presets"),
  bots: () => call<BotLevel[]>("GET", `/api/bots?lang=${lang()}`),
  tables: () => call<TableSummary[]>("GET", "/api/tables"),
  create: (body: Record<string, unknown>) => call<{ id: string; seat: number; token: string; key?: string }>("POST", "/api/tables", body),
  join: (id: string, seat: number, name: string) => call<{ token: string }>("POST", withKey(id, `/api/tables/${id}/join`), { seat, name }),
  bot: (id: string, seat: number, bot: string, token: string) => call<object>("POST", withKey(id, `/api/tables/${id}/bot`), { seat, bot, token }),
  start: (id: string, token: string) => call<object>("POST", withKey(id, `/api/tables/${id}/start`), { token }),
  table: (id: string) => call<TableSummary>("GET", withKey(id, `/api/tables/${id}`)),
  record: (id: string) => call<Record<string, unknown>>("GET", withKey(id, `/api/tables/${id}/record`)),
  replay: (id: string) => call<Replay>("GET", withKey(id, `/api/tables/${id}/replay`)),
  rematch: (id: string, token: string) => call<{ id: string; seat: number }>("POST", withKey(id, `/api/tables/${id}/rematch`), { token }),
};

/** The invite secret of a private table this browser knows (from creating it or from its invite link). */
export function savedKey(id: string): string | null {
  return localStorage.getItem(`torite-key-${id}`);
}

export function saveKey(id: string, key: string): void {
  localStorage.setItem(`torite-key-${id}`, key);
}

/**
 * A request's path about table `id` with the table's invite secret added (`key=`), which every
 * request about a private table needs (docs/PROTOCOL.md, "Private tables"); unchanged for a
 * table whose secret this browser does not hold.
 */
export function withKey(id: string, path: string): string {
  const key = savedKey(id);
  if (!key) return path;
  return `${path}${path.includes("?") ? "&" : "?"}key=${encodeURIComponent(key)}`;
}

export function tokenKey(id: string): string {
  return `torite-token-${id}`;
}

export function savedToken(id: string): string | null {
  return localStorage.getItem(tokenKey(id));
}

/** Whoever is told of every seat token this browser saves (the player profile, which keeps the seat). */
const tokenListeners: ((id: string, token: string) => void)[] = [];

export function onTokenSaved(listener: (id: string, token: string) => void): void {
  tokenListeners.push(listener);
}

export function saveToken(id: string, token: string): void {
  localStorage.setItem(tokenKey(id), token);
  for (const listener of tokenListeners) listener(id, token);
}

/** The seat this browser holds at a table (saved when it joins), to tell whether it lost it. */
export function savedSeat(id: string): number | null {
  const v = localStorage.getItem(`torite-seat-${id}`);
  return v === null || !/^\d+$/.test(v) ? null : Number(v);
}

export function saveSeat(id: string, seat: number): void {
  localStorage.setItem(`torite-seat-${id}`, String(seat));
}

/** Forgets this browser's seat at a table (its token and seat number): it watches from now on. */
export function forgetSeat(id: string): void {
  localStorage.removeItem(tokenKey(id));
  localStorage.removeItem(`torite-seat-${id}`);
}

export function savedName(): string {
  return localStorage.getItem("torite-name") ?? "";
}

export function saveName(name: string): void {
  localStorage.setItem("torite-name", name);
}

let presetCache: Preset[] | null = null;
export async function presets(): Promise<Preset[]> {
  presetCache ??= await api.presets();
  return presetCache;
}
