/**
 * One session as the chat shows it, built from the history and then kept current by the session's
 * events. Both paths give the same view: events carry the ids of the stored messages and parts.
 * Events at or below the last sequence number seen are ignored, so a replay after a reconnect
 * never shows anything twice.
 */
import type { BusEvent, History, Message, Part, TextPart, ToolPart, UndoState } from './types.js';

export interface TurnNotice {
  /** `undo`: what an undo restored, in the server's words. */
  kind: 'waiting' | 'retry' | 'error' | 'stopped' | 'undo';
  text: string;
  code?: string;
}

export interface ChatView {
  sessionId: string;
  messages: Message[];
  lastSeq: number;
  running: boolean;
  /** The turn in flight, while one runs. */
  turnId?: string;
  /** A line under the turn: waiting for the model, retrying, an error, how it stopped. */
  notice?: TurnNotice;
  /** The reply of the last turn that ended while followed live (for reading aloud). */
  lastReply?: { turnId: string; text: string };
  /** When each running call started here, for a live duration. */
  startedAt: Record<string, number>;
  /** Turns that changed files, by id, and whether they can be undone. */
  undo: Record<string, UndoState>;
  /** Tools whose calls may change the workspace: their cards are the ones an undo marks. */
  changingTools: string[];
}

/** The turn POST …/undo would take back now: the newest one still undoable. */
export function undoableTurn(view: ChatView): string | undefined {
  for (let i = view.messages.length - 1; i >= 0; i--) {
    const id = view.messages[i]!.turnId;
    const state = view.undo[id];
    if (state === 'undoable') return id;
  }
  return undefined;
}

/** Marks a turn undone and shows what was restored. */
export function markUndone(view: ChatView, turnId: string, message: string): void {
  view.undo[turnId] = 'undone';
  view.notice = { kind: 'undo', text: message };
}

/** The view of a stored history; `busy` from the session's status, as a turn may be in flight. */
export function viewFromHistory(sessionId: string, history: History, busy: boolean): ChatView {
  const undo = Object.fromEntries((history.undo ?? []).map((u) => [u.turnId, u.state]));
  return {
    sessionId,
    messages: history.messages,
    lastSeq: history.resumeAfter,
    running: busy,
    startedAt: {},
    undo,
    changingTools: history.changingTools ?? [],
  };
}

/** The text of the last text part of a turn's answer. */
function lastText(view: ChatView, turnId: string): string {
  for (let i = view.messages.length - 1; i >= 0; i--) {
    const m = view.messages[i]!;
    if (m.turnId !== turnId || m.role !== 'assistant') continue;
    for (let j = m.parts.length - 1; j >= 0; j--) {
      const p = m.parts[j]!;
      if (p.type === 'text') return p.text.trim();
    }
  }
  return '';
}

function message(view: ChatView, id: string): Message | undefined {
  for (let i = view.messages.length - 1; i >= 0; i--) if (view.messages[i]!.id === id) return view.messages[i];
  return undefined;
}

function assistant(view: ChatView, e: { messageId: string; turnId: string; sessionId: string }): Message {
  let m = message(view, e.messageId);
  if (!m) {
    view.messages.push({
      id: e.messageId,
      sessionId: e.sessionId,
      turnId: e.turnId,
      role: 'assistant',
      createdAt: Date.now(),
      parts: [],
    });
    // The array's own element: a reactive view hands out its reactive copy.
    m = view.messages[view.messages.length - 1]!;
  }
  return m;
}

function part<T extends Part>(m: Message, id: string, make: () => T): T {
  const found = m.parts.find((p) => p.id === id);
  if (found) return found as T;
  const made = make();
  m.parts.push(made);
  return m.parts[m.parts.length - 1] as T;
}

const STOPPED = new Set(['aborted', 'interrupted', 'max_steps', 'repeated_call', 'limit', 'error']);

/** Applies one event; returns false when it was already seen or is not this session's. */
export function applyEvent(view: ChatView, event: BusEvent): boolean {
  if (!('sessionId' in event) || event.sessionId !== view.sessionId) return false;
  if (event.seq <= view.lastSeq) return false;
  view.lastSeq = event.seq;
  switch (event.type) {
    case 'turn.start':
      view.running = true;
      view.turnId = event.turnId;
      view.notice = undefined;
      if (!message(view, event.messageId)) {
        view.messages.push({
          id: event.messageId,
          sessionId: event.sessionId,
          turnId: event.turnId,
          role: 'user',
          createdAt: Date.now(),
          parts: [{ id: `${event.messageId}:text`, type: 'text', text: event.text }],
        });
      }
      break;
    case 'step.start':
      // Not "running": a step replayed from a turn whose server died has no end to come. Only
      // turn.start (live) and the session's status say a turn runs.
      view.turnId = event.turnId;
      assistant(view, event);
      break;
    case 'text.delta':
    case 'reasoning.delta': {
      const type = event.type === 'text.delta' ? 'text' : 'reasoning';
      const p = part<TextPart>(assistant(view, event), event.partId, () => ({ id: event.partId, type, text: '' }));
      p.text += event.delta;
      if (view.notice?.kind === 'waiting' || view.notice?.kind === 'retry') view.notice = undefined;
      break;
    }
    case 'tool.start': {
      const p = part<ToolPart>(assistant(view, event), event.partId, () => ({
        id: event.partId,
        type: 'tool',
        callId: event.callId,
        tool: event.tool,
        input: event.input,
        output: null,
        state: 'running',
        ms: null,
      }));
      p.state = 'running';
      view.startedAt[event.partId] = Date.now();
      break;
    }
    case 'tool.progress': {
      const m = message(view, event.messageId);
      const p = m?.parts.find((x) => x.id === event.partId);
      if (p?.type === 'tool') p.progress = event.message;
      break;
    }
    case 'tool.end': {
      const p = part<ToolPart>(assistant(view, event), event.partId, () => ({
        id: event.partId,
        type: 'tool',
        callId: event.callId,
        tool: event.tool,
        input: event.input,
        output: null,
        state: 'running',
        ms: null,
      }));
      Object.assign(p, {
        state: event.ok ? 'completed' : 'error',
        output: event.output,
        ms: event.ms,
        progress: undefined,
        ...(event.title !== undefined && { title: event.title }),
        ...(event.metadata !== undefined && { metadata: event.metadata }),
        ...(event.attachments !== undefined && { attachments: event.attachments }),
        ...(event.permission !== undefined && { permission: event.permission }),
      });
      delete view.startedAt[event.partId];
      break;
    }
    case 'llm.waiting':
      view.notice = { kind: 'waiting', text: String(Math.round(event.elapsedMs / 1000)) };
      break;
    case 'llm.retry':
      view.notice = { kind: 'retry', text: event.reason, code: String(event.attempt) };
      break;
    case 'error':
      view.notice = { kind: 'error', text: event.message, code: event.code };
      break;
    case 'turn.end':
      view.running = false;
      view.turnId = undefined;
      view.startedAt = {};
      // The reply itself says how the turn stopped; a notice is for a turn that ended without one.
      if (view.notice?.kind === 'error' && event.reply.includes(view.notice.text)) view.notice = undefined;
      else if (view.notice?.kind !== 'error')
        view.notice =
          STOPPED.has(event.stopReason) && !event.reply.trim()
            ? { kind: 'stopped', text: event.stopReason }
            : undefined;
      // A reply the turn wrote without streaming it (how a stopped turn ends, what was done and
      // not) is stored as a message of its own; show it the same way now.
      if (event.reply.trim() && event.reply.trim() !== lastText(view, event.turnId)) {
        view.messages.push({
          id: `${event.turnId}:reply`,
          sessionId: event.sessionId,
          turnId: event.turnId,
          role: 'assistant',
          createdAt: Date.now(),
          parts: [{ id: `${event.turnId}:reply:text`, type: 'text', text: event.reply }],
        });
      }
      view.lastReply = { turnId: event.turnId, text: event.reply };
      break;
    case 'session.status':
      view.running = event.status === 'busy';
      break;
    case 'undo.available':
      view.undo[event.turnId] = 'undoable';
      break;
    case 'undo':
      markUndone(view, event.turnId, event.message);
      break;
    default:
      break;
  }
  return true;
}
