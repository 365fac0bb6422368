/**
 * The app's state and what changes it. Components read `state` and call the actions; only this
 * module talks to the API. The sidebar's running dots and the permission asks come from the
 * server-wide event stream; the open chat follows its own session's stream.
 */
import { reactive, shallowRef, triggerRef } from 'vue';
import { api, ApiError, follow, setToken, whenUnauthorized } from './api';
import { applyEvent, markUndone, viewFromHistory, type ChatView } from './chat-state';
import { t } from './i18n';
import type { BusEvent, McpServer, Models, PermissionAsk, ServerEvent, Session, Status } from './types';

export interface Toast {
  id: number;
  text: string;
  kind: 'info' | 'error';
}

export const state = reactive({
  sessions: [] as Session[],
  sessionsLoaded: false,
  activeId: null as string | null,
  busy: new Set<string>(),
  status: null as Status | null,
  models: null as Models | null,
  asks: [] as PermissionAsk[],
  /** The server-wide stream is connected. */
  connected: true,
  needToken: false,
  toasts: [] as Toast[],
  /** The text being sent before the server has taken it. */
  sending: null as string | null,
  loadingHistory: false,
  /** The MCP servers with their state, once the MCP page has loaded them; kept current by `mcp.server` events. */
  mcp: null as McpServer[] | null,
});

/**
 * The open chat. The view itself is reactive, so a delta re-renders only the part it changed: the
 * components are handed its messages and parts, which the events change in place.
 */
export const view = shallowRef<ChatView | null>(null);

let stopFollowing: (() => void) | undefined;
let stopEvents: (() => void) | undefined;
let toastId = 0;
/** Chats this page deleted: their deletion is no news to it. */
const deletedHere = new Set<string>();
/** Chats deleted anywhere: a list asked for before the deletion and answered after it must not bring one back. */
const gone = new Set<string>();
let selecting = 0;

export function toast(text: string, kind: Toast['kind'] = 'info'): void {
  const id = ++toastId;
  state.toasts.push({ id, text, kind });
  setTimeout(() => dismiss(id), kind === 'error' ? 8000 : 4000);
}
export function dismiss(id: number): void {
  const i = state.toasts.findIndex((x) => x.id === id);
  if (i >= 0) state.toasts.splice(i, 1);
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
const fail = (err: unknown) => {
  if (err instanceof ApiError && err.status === 401) return;
  toast(message(err), 'error');
};

export const sessionTitle = (s: Pick<Session, 'title'> | undefined) => (s?.title?.trim() ? s.title : t('untitled'));

export async function refreshSessions(): Promise<void> {
  try {
    const list = (await api.sessions()).filter((s) => !gone.has(s.id));
    state.sessions = list;
    for (const s of list) {
      if (s.status === 'busy') state.busy.add(s.id);
      else state.busy.delete(s.id);
    }
    state.sessionsLoaded = true;
  } catch (err) {
    fail(err);
  }
}

export async function refreshStatus(): Promise<void> {
  try {
    state.status = await api.status();
  } catch (err) {
    fail(err);
  }
}

export async function loadModels(): Promise<void> {
  try {
    state.models = await api.models();
  } catch (err) {
    // Older servers, or a provider that failed: the status still names the model.
    state.models = null;
    if (!(err instanceof ApiError && err.status === 404)) fail(err);
  }
}

export async function chooseModel(model: string): Promise<void> {
  try {
    state.models = await api.setModel(model);
    await refreshStatus();
  } catch (err) {
    fail(err);
  }
}

export async function loadMcp(): Promise<void> {
  try {
    state.mcp = await api.mcpServers();
  } catch (err) {
    fail(err);
  }
}

/** A server's new view (or its removal) in the page's list and the status panel's summary. */
export function mcpChanged(server: McpServer, removed = false): void {
  if (state.mcp) {
    const i = state.mcp.findIndex((s) => s.name === server.name);
    if (removed) {
      if (i >= 0) state.mcp.splice(i, 1);
    } else if (i >= 0) state.mcp[i] = server;
    else state.mcp.push(server);
  }
  if (state.status) {
    const summary = {
      name: server.name,
      state: server.state,
      tools: server.tools.length,
      ...(server.error ? { error: server.error } : {}),
    };
    const list = state.status.mcp;
    const i = list.findIndex((s) => s.name === server.name);
    if (removed) {
      if (i >= 0) list.splice(i, 1);
    } else if (i >= 0) list[i] = summary;
    else list.push(summary);
  }
}

function onServerEvent(incoming: BusEvent): void {
  const event = incoming as ServerEvent;
  if (event.type === 'mcp.server') return mcpChanged(event.server, event.removed === true);
  switch (event.type) {
    case 'session.status':
      if (event.status === 'busy') {
        state.busy.add(event.sessionId);
        // A new chat is named from its first words as its turn starts: show the name now.
        if (!state.sessions.find((s) => s.id === event.sessionId)?.title) void refreshSessions();
      } else {
        state.busy.delete(event.sessionId);
        // The title is named after the first message, and the order changes with activity.
        void refreshSessions();
      }
      if (!state.sessions.some((s) => s.id === event.sessionId)) void refreshSessions();
      break;
    case 'session.deleted':
      gone.add(event.sessionId);
      state.sessions = state.sessions.filter((s) => s.id !== event.sessionId);
      state.busy.delete(event.sessionId);
      state.asks = state.asks.filter((a) => a.sessionId !== event.sessionId);
      if (state.activeId === event.sessionId) {
        if (!deletedHere.has(event.sessionId)) toast(t('sessionGone'));
        void select(null);
      }
      break;
    case 'permission.asked':
      if (!state.asks.some((a) => a.id === event.id)) {
        state.asks.push({
          id: event.id,
          sessionId: event.sessionId,
          turnId: event.turnId,
          callId: event.callId,
          tool: event.tool,
          action: event.action,
          target: event.target,
          ...(event.parts && { parts: event.parts }),
          ...(event.mustAsk !== undefined && { mustAsk: event.mustAsk }),
        });
      }
      break;
    case 'permission.replied':
      state.asks = state.asks.filter((a) => a.id !== event.id);
      break;
    default:
      break;
  }
}

/** Where the app is: `/s/<id>` is a chat, `/` a new one. */
function idFromLocation(): string | null {
  const m = /^\/s\/([^/]+)$/.exec(location.pathname);
  return m ? decodeURIComponent(m[1]!) : null;
}

function setLocation(id: string | null, replace = false): void {
  const path = id ? `/s/${encodeURIComponent(id)}` : '/';
  if (location.pathname === path) return;
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
}

function followActive(v: ChatView): void {
  stopFollowing?.();
  stopFollowing = follow(`/api/sessions/${encodeURIComponent(v.sessionId)}/events`, {
    after: v.lastSeq,
    onEvent(event) {
      if (view.value !== v) return;
      if (event.type === 'turn.start') state.sending = null;
      if (applyEvent(v, event)) triggerRef(view);
      if (event.type === 'session.deleted') stopFollowing?.();
    },
    onEnd(err) {
      if (err?.status === 404 && view.value === v) {
        if (!deletedHere.has(v.sessionId)) toast(t('sessionGone'));
        void select(null);
      }
    },
  });
}

/**
 * Opens a chat (or, with null, a new empty one): its history, then its live events. `sending` keeps
 * the message being sent in view meanwhile: the chat was just made for it.
 */
export async function select(id: string | null, opts: { replace?: boolean; sending?: string } = {}): Promise<void> {
  const ticket = ++selecting;
  stopFollowing?.();
  stopFollowing = undefined;
  state.sending = opts.sending ?? null;
  state.activeId = id;
  setLocation(id, opts.replace);
  if (!id) {
    // A chat chosen just before may still be loading: it will not say it is done.
    state.loadingHistory = false;
    view.value = null;
    return;
  }
  state.loadingHistory = true;
  // Another chat's messages must not stand in for this one's while they load (nor take its Stop).
  if (view.value && view.value.sessionId !== id) view.value = null;
  try {
    const [history, session] = await Promise.all([api.history(id), api.session(id)]);
    if (ticket !== selecting) return;
    const v = reactive(viewFromHistory(id, history, session.status === 'busy')) as ChatView;
    view.value = v;
    followActive(v);
  } catch (err) {
    if (ticket !== selecting) return;
    if (err instanceof ApiError && err.status === 404) {
      toast(t('sessionGone'), 'error');
      return select(null, { replace: true });
    }
    fail(err);
  } finally {
    if (ticket === selecting) state.loadingHistory = false;
  }
}

/** Sends a message in the open chat, making the chat first when it is a new one. */
/** The longest message the server takes (its ChatRequest limit). */
export const MAX_MESSAGE_CHARS = 100_000;

/** Sends a message in the open chat, making the chat first when it is a new one. */
export async function send(text: string): Promise<boolean> {
  const message = text.trim();
  if (!message) return false;
  if (message.length > MAX_MESSAGE_CHARS) {
    toast(t('tooLong', { n: MAX_MESSAGE_CHARS.toLocaleString() }), 'error');
    return false;
  }
  state.sending = message;
  let created: Session | undefined;
  try {
    if (!state.activeId) {
      const ticket = selecting;
      created = await api.createSession();
      state.sessions.unshift(created);
      // The user went elsewhere while the chat was made: it waits in the list, nothing is sent.
      if (ticket !== selecting) {
        state.sending = null;
        return false;
      }
      await select(created.id, { sending: message });
    }
    const id = state.activeId!;
    state.busy.add(id);
    if (view.value?.sessionId === id) {
      view.value.running = true;
      triggerRef(view);
    }
    await api.startTurn(id, message);
    return true;
  } catch (err) {
    state.sending = null;
    if (state.activeId) state.busy.delete(state.activeId);
    if (view.value) {
      view.value.running = false;
      triggerRef(view);
    }
    if (err instanceof ApiError && err.code === 'busy') toast(t('busyElsewhere'), 'error');
    else fail(err);
    // A chat made for a message the server then refused would be an empty one left behind.
    if (created && state.activeId === created.id) {
      const id = created.id;
      deletedHere.add(id);
      void api.remove(id).then(
        () => {
          state.sessions = state.sessions.filter((s) => s.id !== id);
          if (state.activeId === id) void select(null, { replace: true });
        },
        () => {},
      );
    }
    return false;
  }
}

export async function stop(): Promise<void> {
  const id = state.activeId;
  if (!id) return;
  try {
    const { aborted } = await api.abort(id);
    // Nothing was running there (its server stopped mid-turn): show the chat as it really is.
    if (!aborted && state.activeId === id) await select(id, { replace: true });
  } catch (err) {
    fail(err);
  }
}

/** Takes back the open chat's last turn that changed files; the chat shows what was restored. */
export async function undoLast(): Promise<void> {
  const v = view.value;
  if (!v) return;
  try {
    const result = await api.undo(v.sessionId);
    // The session's stream says so too; this way the answer shows even if the stream lags.
    if (view.value === v) {
      markUndone(v, result.turnId, result.message);
      triggerRef(view);
    }
  } catch (err) {
    fail(err);
  }
}

export async function rename(id: string, title: string): Promise<void> {
  const before = state.sessions.find((s) => s.id === id)?.title;
  // Shown at once; put back if the server refuses.
  state.sessions = state.sessions.map((s) => (s.id === id ? { ...s, title } : s));
  try {
    const updated = await api.rename(id, title);
    state.sessions = state.sessions.map((s) => (s.id === id ? updated : s));
  } catch (err) {
    if (before !== undefined) state.sessions = state.sessions.map((s) => (s.id === id ? { ...s, title: before } : s));
    fail(err);
  }
}

export async function remove(id: string): Promise<void> {
  deletedHere.add(id);
  try {
    await api.remove(id);
    state.sessions = state.sessions.filter((s) => s.id !== id);
    if (state.activeId === id) await select(null);
  } catch (err) {
    fail(err);
  }
}

export async function answer(ask: PermissionAsk, decision: 'once' | 'always' | 'deny'): Promise<void> {
  state.asks = state.asks.filter((a) => a.id !== ask.id);
  try {
    await api.answer(ask.id, decision);
  } catch (err) {
    // Already answered elsewhere or the turn ended: nothing waits on it any more.
    if (!(err instanceof ApiError && err.status === 404)) fail(err);
  }
}

export function giveToken(value: string): void {
  setToken(value.trim() || null);
  state.needToken = false;
  void start();
}

/** Loads what the app shows first and starts listening to the server. */
export async function start(): Promise<void> {
  whenUnauthorized(() => (state.needToken = true));
  stopEvents?.();
  stopEvents = follow('/api/events', {
    resume: false,
    onEvent: onServerEvent,
    onState(connected) {
      state.connected = connected;
      // Reconnected: what changed meanwhile is in the lists, not in the stream.
      if (connected) {
        state.asks = [];
        void refreshSessions();
        // MCP servers changed meanwhile: their list says how they are now.
        if (state.mcp) void loadMcp();
      }
    },
  });
  await Promise.all([refreshStatus(), refreshSessions()]);
  void loadModels();
  await select(idFromLocation(), { replace: true });
}

window.addEventListener('popstate', () => void select(idFromLocation(), { replace: true }));
