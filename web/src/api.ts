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
  constructor(public status: number, message: string) {
    super(message);
  }
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
    throw new ApiError(res.status, msg);
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
