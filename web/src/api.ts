// The server's HTTP API (docs/PROTOCOL.md).

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
}

export class ApiError extends Error {
  constructor(public status: number, message: string, public body: Record<string, unknown> | null = null) {
    super(message);
  }
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

export type SheetKind = "rules" | "scores" | "scorepad";

/** The address of a printable sheet of a preset (`preset`) or of a table's own rules. */
export function sheetUrl(target: { preset: string } | { table: string }, kind: SheetKind, lang: string, format: "html" | "pdf"): string {
  const base = "preset" in target ? `/api/presets/${target.preset}` : `/api/tables/${target.table}`;
  return `${base}/sheet?kind=${kind}&lang=${lang}&format=${format}`;
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const msg = (data as { error?: string } | null)?.error ?? `${res.status} ${res.statusText}`;
    throw new ApiError(res.status, msg, data as Record<string, unknown> | null);
  }
  return data as T;
}

export const api = {
  presets: () => call<Preset[]>("GET", "/api/presets"),
  bots: () => call<string[]>("GET", "/api/bots"),
  tables: () => call<TableSummary[]>("GET", "/api/tables"),
  create: (body: Record<string, unknown>) => call<{ id: string; seat: number; token: string }>("POST", "/api/tables", body),
  join: (id: string, seat: number, name: string) => call<{ token: string }>("POST", `/api/tables/${id}/join`, { seat, name }),
  bot: (id: string, seat: number, bot: string, token: string) => call<object>("POST", `/api/tables/${id}/bot`, { seat, bot, token }),
  start: (id: string, token: string) => call<object>("POST", `/api/tables/${id}/start`, { token }),
  table: (id: string) => call<TableSummary>("GET", `/api/tables/${id}`),
  record: (id: string) => call<Record<string, unknown>>("GET", `/api/tables/${id}/record`),
  replay: (id: string) => call<Replay>("GET", `/api/tables/${id}/replay`),
};

export function tokenKey(id: string): string {
  return `torite-token-${id}`;
}

export function savedToken(id: string): string | null {
  return localStorage.getItem(tokenKey(id));
}

export function saveToken(id: string, token: string): void {
  localStorage.setItem(tokenKey(id), token);
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
