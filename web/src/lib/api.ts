/**
 * The HTTP API, as the web app calls it. Every request carries the bearer token when the user gave
 * one (a server bound off loopback needs it); a 401 asks the app for one.
 */
import { t } from './i18n';
import { readSse } from './sse';

/** How long a request may wait for the server's answer to begin: a stopped server must not hang the page. */
const ANSWER_TIMEOUT_MS = 30_000;
import type {
  BusEvent,
  History,
  McpServer,
  Memory,
  Models,
  PermissionSettings,
  Session,
  Status,
  ToolRule,
  UndoResult,
  Uploaded,
} from './types';

const TOKEN_KEY = 'zhixing.token';

/** POST /api/mcp's body: a local server's command line, or a server's URL. */
export type NewMcpServer =
  | { name: string; command: string; args: string[]; env?: Record<string, string> }
  | { name: string; url: string; headers?: Record<string, string> };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

let token: string | null = localStorage.getItem(TOKEN_KEY);
let onUnauthorized: () => void = () => {};

export function setToken(value: string | null): void {
  token = value;
  if (value) localStorage.setItem(TOKEN_KEY, value);
  else localStorage.removeItem(TOKEN_KEY);
}

/** True when the requests carry a token (so a 401 means it is wrong, not missing). */
export const hasToken = (): boolean => token !== null;

/** Called when the server says the token is missing or wrong. */
export function whenUnauthorized(handler: () => void): void {
  onUnauthorized = handler;
}

const authHeaders = (): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});

async function failure(res: Response): Promise<ApiError> {
  let code = 'http_' + res.status;
  let message = res.statusText || `HTTP ${res.status}`;
  try {
    const body = (await res.json()) as { error?: { code?: string; message?: string } };
    if (body.error?.code) code = body.error.code;
    if (body.error?.message) message = body.error.message;
  } catch {
    // Not our JSON (a proxy's page): the status line says enough.
  }
  if (res.status === 401) onUnauthorized();
  return new ApiError(res.status, code, message);
}

async function send(method: string, path: string, init: RequestInit = {}): Promise<Response> {
  // Bounded until the answer begins (its headers), not after: an event stream may then run for hours.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('timeout', 'TimeoutError')), ANSWER_TIMEOUT_MS);
  const signal = init.signal ? AbortSignal.any([init.signal, controller.signal]) : controller.signal;
  let res: Response;
  try {
    res = await fetch(path, {
      ...init,
      method,
      signal,
      headers: { ...authHeaders(), ...(init.headers as Record<string, string>) },
    });
  } catch (err) {
    if (controller.signal.aborted && !init.signal?.aborted) throw new ApiError(0, 'timeout', t('timedOut'));
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'offline', t('unreachable'));
  } finally {
    clearTimeout(timer);
  }
  if (!res.ok) throw await failure(res);
  return res;
}

async function json<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await send(
    method,
    path,
    body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } },
  );
  return res.status === 204 ? (undefined as T) : ((await res.json()) as T);
}

const enc = encodeURIComponent;

export const api = {
  status: () => json<Status>('GET', '/api/status'),
  models: () => json<Models>('GET', '/api/models'),
  setModel: (model: string) => json<Models>('PUT', '/api/model', { model }),
  sessions: async () => (await json<{ sessions: Session[] }>('GET', '/api/sessions')).sessions,
  session: (id: string) => json<Session>('GET', `/api/sessions/${enc(id)}`),
  createSession: (title?: string) => json<Session>('POST', '/api/sessions', title ? { title } : {}),
  rename: (id: string, title: string) => json<Session>('PATCH', `/api/sessions/${enc(id)}`, { title }),
  remove: (id: string) => json<void>('DELETE', `/api/sessions/${enc(id)}`),
  history: (id: string) => json<History>('GET', `/api/sessions/${enc(id)}/messages`),
  abort: (id: string) => json<{ aborted: boolean }>('POST', `/api/sessions/${enc(id)}/abort`),
  undo: (id: string) => json<UndoResult>('POST', `/api/sessions/${enc(id)}/undo`),
  answer: (askId: string, decision: 'once' | 'always' | 'deny') =>
    json<unknown>('POST', `/api/permissions/${enc(askId)}`, { decision }),
  permissions: () => json<PermissionSettings>('GET', '/api/permissions'),
  setPermissions: (rules: Record<string, ToolRule>) => json<PermissionSettings>('PUT', '/api/permissions', { rules }),
  forgetAnswer: (tool: string, pattern: string) =>
    json<PermissionSettings>('DELETE', '/api/permissions/remembered', { tool, pattern }),
  memories: (query: { session?: string; q?: string; limit?: number }) => {
    const params = new URLSearchParams(
      Object.entries(query).flatMap(([k, v]) => (v === undefined || v === '' ? [] : [[k, String(v)]])),
    );
    return json<{ memories: Memory[]; total: number }>('GET', `/api/memories${params.size ? `?${params}` : ''}`);
  },
  editMemory: (id: string, patch: { content?: string; tags?: string[] }) =>
    json<Memory>('PATCH', `/api/memories/${enc(id)}`, patch),
  removeMemory: (id: string) => json<void>('DELETE', `/api/memories/${enc(id)}`),
  preferences: () => json<{ instructions: string[] }>('GET', '/api/preferences'),
  setPreferences: (instructions: string[]) =>
    json<{ instructions: string[] }>('PUT', '/api/preferences', { instructions }),
  mcpServers: async () => (await json<{ servers: McpServer[] }>('GET', '/api/mcp')).servers,
  addMcp: (server: NewMcpServer) => json<McpServer>('POST', '/api/mcp', server),
  removeMcp: (name: string) => json<{ ok: true }>('DELETE', `/api/mcp/${enc(name)}`),
  setMcpEnabled: (name: string, enabled: boolean) => json<McpServer>('PATCH', `/api/mcp/${enc(name)}`, { enabled }),
  reconnectMcp: (name: string) => json<McpServer>('POST', `/api/mcp/${enc(name)}/reconnect`),

  /**
   * Starts a turn and resolves once it has begun (its first event), or rejects with the refusal
   * (busy, too many running, bad message). The events themselves arrive on the session's follow
   * stream, so this connection is let go at once: leaving does not stop the turn, and the browser's
   * few connections per server stay free for other sessions.
   */
  async startTurn(id: string, message: string): Promise<void> {
    const controller = new AbortController();
    const res = await send('POST', `/api/sessions/${enc(id)}/chat`, {
      body: JSON.stringify({ message }),
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      signal: controller.signal,
    });
    if (!res.body) return;
    await readSse(res.body, () => controller.abort(), controller.signal).catch(() => {});
  },

  /** Bytes from the API as a blob (a file preview, an attachment), with the token. */
  async blob(path: string): Promise<Blob> {
    return (await send('GET', path)).blob();
  },
  fileUrl: (path: string) => `/api/files/raw?path=${enc(path)}`,
  attachmentUrl: (sessionId: string, partId: string, index: number) =>
    `/api/sessions/${enc(sessionId)}/parts/${enc(partId)}/attachments/${index}`,

  /** Uploads a file into the workspace, telling progress (XHR: fetch cannot report upload progress). */
  upload(file: File, path: string, onProgress?: (fraction: number) => void): Promise<Uploaded> {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `/api/files?path=${enc(path)}`);
      for (const [k, v] of Object.entries(authHeaders())) xhr.setRequestHeader(k, v);
      xhr.setRequestHeader('content-type', 'application/octet-stream');
      xhr.upload.onprogress = (e) => e.lengthComputable && onProgress?.(e.loaded / e.total);
      xhr.onerror = () => reject(new ApiError(0, 'offline', t('uploadUnreachable')));
      xhr.onload = () => {
        let body: { error?: { code?: string; message?: string } } & Partial<Uploaded> = {};
        try {
          body = JSON.parse(xhr.responseText);
        } catch {
          // fall through to the status
        }
        if (xhr.status === 201) return resolve(body as Uploaded);
        if (xhr.status === 401) onUnauthorized();
        reject(
          new ApiError(
            xhr.status,
            body.error?.code ?? `http_${xhr.status}`,
            body.error?.message ?? `Upload failed (HTTP ${xhr.status}).`,
          ),
        );
      };
      xhr.send(file);
    });
  },
};

export interface FollowOptions {
  /** The last sequence number already shown: the server replays what came after it. */
  after?: number;
  /** False for a stream whose ids are not one sequence (GET /api/events): reconnect without Last-Event-ID. */
  resume?: boolean;
  onEvent(event: BusEvent): void;
  /** Connected (true) or lost and retrying (false). */
  onState?(connected: boolean): void;
  /** The stream cannot continue (404: the session is gone). */
  onEnd?(error?: ApiError): void;
}

/**
 * Follows an event stream and keeps following: after a dropped connection it reconnects with the
 * last id it saw, so nothing is missed or shown twice. Returns the function that stops it.
 */
export function follow(path: string, options: FollowOptions): () => void {
  const controller = new AbortController();
  let lastId = options.after;
  let delay = 500;
  (async () => {
    while (!controller.signal.aborted) {
      try {
        const res = await send('GET', path, {
          headers: { accept: 'text/event-stream', ...(lastId !== undefined && { 'last-event-id': String(lastId) }) },
          signal: controller.signal,
        });
        options.onState?.(true);
        delay = 500;
        await readSse(
          res.body!,
          (m) => {
            if (options.resume !== false && m.id && /^\d+$/.test(m.id)) lastId = Number(m.id);
            try {
              options.onEvent(JSON.parse(m.data) as BusEvent);
            } catch (err) {
              console.warn('zhixing: an event could not be read', err);
            }
          },
          controller.signal,
        );
      } catch (err) {
        if (controller.signal.aborted) return;
        if (err instanceof ApiError && (err.status === 404 || err.status === 401)) return options.onEnd?.(err);
      }
      if (controller.signal.aborted) return;
      options.onState?.(false);
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 8000);
    }
  })();
  return () => controller.abort();
}
