import type { Message } from '../contract/message.js';
import type { SessionRecord } from '../contract/session.js';
import type { Lang } from '../i18n.js';
import { runTurn, type TurnDeps, type TurnResult } from '../agent/run-turn.js';
import { buildSystemPrompt } from '../agent/system-prompt.js';
import { promptSources } from '../agent/turn-trust-feed.js';
import type { EventLog } from './event-log.js';
import { createSessionLocks, type SessionLocks } from './session-lock.js';
import { MAX_MESSAGE_CHARS } from './limits.js';
import { titleFromText } from './title.js';
import type { UndoState } from '../contract/undo.js';
import { UndoError, type UndoResult, type WorkspaceUndo } from '../undo/undo.js';
import { UserError } from '../contract/user-error.js';

const DEFAULT_MAX_RUNNING = 10;
const DEFAULT_MAX_REPLY_CHARS = 200_000;
/** How long a finished turn waits for the model's title before going on without it. */
const TITLE_GRACE_MS = 2_000;
/** Enough of the recent history to tell the language of the user's last words. */
const LANG_WINDOW = { maxChars: 4_000, maxPartChars: 2_000 };

export type SessionErrorCode = 'not_found' | 'busy' | 'too_many' | 'bad_request' | 'nothing_to_undo';

/** An error a user can act on; hosts map the code to an exit code or HTTP status. */
export class SessionError extends UserError<SessionErrorCode> {
  override name = 'SessionError';
}

export interface SessionsDeps extends TurnDeps {
  workspace: string;
  maxSteps: number;
  /** The most characters one model step may write; default 200,000. */
  maxReplyChars?: number;
  /** The most one turn may take, in milliseconds; no deadline when unset. */
  turnTimeoutMs?: number;
  /** Forced language; otherwise each turn follows the user's words. */
  lang?: Lang;
  detectLang(text: string): Lang;
  maxRunning?: number;
  /** Cross-process turn locks; by default over the store's lock table. */
  locks?: SessionLocks;
  /**
   * The skills to list in the system prompt (name and description), looked up at each turn's start.
   * `project`: from the folder Zhixing was started in (a cloned repository), not written by the user.
   */
  skills?: () => Promise<Array<{ name: string; description: string; source?: string }>>;
  /** The numbered event log, taken up at each turn's start; none in tests that do not replay. */
  events?: Pick<EventLog, 'sync'>;
  /** Workspace snapshots: turns that change files become undoable. None: undo says there is nothing to undo. */
  undo?: WorkspaceUndo;
}

export interface SendOptions {
  signal?: AbortSignal;
  /** How long to wait for a turn of this session running in another process. */
  waitMs?: number;
  /** Told once when the wait begins, with the other process's pid. */
  onWait?: (holderPid: number) => void;
}

export interface SessionsService {
  create(title?: string): SessionRecord;
  list(): SessionRecord[];
  get(id: string): SessionRecord | undefined;
  mostRecent(): SessionRecord | undefined;
  rename(id: string, title: string): SessionRecord;
  /** Deletes a session and its history; a running turn is stopped and allowed to settle first. */
  delete(id: string): Promise<void>;
  history(id: string): Message[];
  /**
   * Runs one turn. One turn at a time per session, across processes too; at most `maxRunning` sessions
   * at once. A session busy in another process is waited for up to `waitMs` (default 0), then refused.
   */
  send(id: string, text: string, options?: SendOptions): Promise<TurnResult>;
  /** Stops the running turn; `interrupted` says the program is shutting down rather than the user asking. */
  abort(id: string, reason?: 'aborted' | 'interrupted'): boolean;
  status(id: string): 'busy' | 'idle';
  running(): { ids: string[]; limit: number };
  /**
   * Rolls the workspace back to before the session's last turn that changed files and is not undone.
   * Refused while a turn of the session runs (here or in another process). `lang` defaults to the
   * language of the user's last message.
   */
  undo(id: string, lang?: Lang): Promise<UndoResult>;
  /** Each turn of the session that changed files, and whether it can be undone. */
  undoStates(id: string): Array<{ turnId: string; state: UndoState }>;
  /** Stops side work (title requests) so the process can exit. */
  close(): void;
}

export function createSessions(deps: SessionsDeps): SessionsService {
  const { store, bus } = deps;
  const now = deps.now ?? Date.now;
  const maxRunning = deps.maxRunning ?? DEFAULT_MAX_RUNNING;
  const running = new Map<string, { controller: AbortController; done: Promise<unknown> }>();
  const locks = deps.locks ?? createSessionLocks({ locks: store.locks });
  // Title requests are side work: closing the service cancels them rather than waiting.
  const sideWork = new AbortController();

  const mustGet = (id: string): SessionRecord => {
    const s = store.sessions.get(id);
    if (!s)
      throw new SessionError(
        'not_found',
        `There is no session "${id}". List them with /sessions or GET /api/sessions.`,
        `没有会话「${id}」。用 /sessions 查看。`,
      );
    return s;
  };

  /**
   * Names a new session: its first words at once, then the model's title when it comes. The model
   * is asked while the turn runs; the turn waits for it at most `TITLE_GRACE_MS` after it ends.
   * A rename by the user in the meantime wins.
   */
  function nameSession(id: string, text: string): Promise<void> {
    const auto = titleFromText(text);
    store.sessions.rename(id, auto);
    const { llm } = deps;
    if (!llm.title) return Promise.resolve();
    const settled = llm
      .title(text, sideWork.signal)
      .then((title) => {
        const clean = title.trim();
        if (clean && store.sessions.get(id)?.title === auto) store.sessions.rename(id, clean);
      })
      .catch(() => {
        /* the first words stay */
      });
    return settled;
  }

  return {
    create: (title = '') => store.sessions.create(store.newId('ses'), title.trim(), now()),
    list: () => store.sessions.list(),
    get: (id) => store.sessions.get(id),
    mostRecent: () => store.sessions.mostRecent(),
    rename(id, title) {
      mustGet(id);
      const clean = title.trim();
      if (!clean) throw new SessionError('bad_request', 'A title cannot be empty.', '标题不能为空。');
      store.sessions.rename(id, clean);
      return mustGet(id);
    },
    async delete(id) {
      mustGet(id);
      const run = running.get(id);
      // Another process mid-turn would fail on every write once its rows are gone.
      const elsewhere = run ? undefined : locks.holder(id);
      if (elsewhere) {
        throw new SessionError(
          'busy',
          `This session is answering in another Zhixing process (pid ${elsewhere}). Delete it once that is done.`,
          `这个会话正在另一个知行进程（pid ${elsewhere}）中回答，等它完成后再删除。`,
        );
      }
      if (run) {
        run.controller.abort();
        // Its last writes land before the rows go, so none of them can fail on a missing session.
        await run.done.catch(() => {});
      }
      store.sessions.delete(id);
      bus.emit({ type: 'session.deleted', sessionId: id });
    },
    history: (id) => (mustGet(id), store.messages.list(id)),
    status: (id) => (running.has(id) ? 'busy' : 'idle'),
    running: () => ({ ids: [...running.keys()], limit: maxRunning }),
    abort(id, reason = 'aborted') {
      const run = running.get(id);
      run?.controller.abort(reason);
      return run !== undefined;
    },
    close: () => sideWork.abort(),
    undoStates: (id) => (mustGet(id), deps.undo?.states(id) ?? []),
    async undo(id, lang) {
      mustGet(id);
      const busy = () =>
        new SessionError(
          'busy',
          'A turn of this session is still running: wait for it to finish (or stop it), then undo.',
          '这个会话还有一轮在运行：等它结束（或先停止它）再撤销。',
        );
      if (running.has(id)) throw busy();
      // Holding the session's lock keeps any process from starting a turn while files are put back.
      const release = await locks.acquire(id, { waitMs: 0 });
      if (!release) throw busy();
      try {
        if (!deps.undo)
          throw new UndoError(
            'nothing_to_undo',
            'Nothing to undo: undo is not set up here.',
            '没有可以撤销的：这里没有启用撤销。',
          );
        const said = lang ?? deps.lang ?? deps.detectLang(lastUserText(id));
        const result = deps.undo.undo(id, said);
        bus.emit({ type: 'undo', sessionId: id, ...result });
        return result;
      } catch (err) {
        if (err instanceof UndoError) throw new SessionError('nothing_to_undo', err.message, err.zh);
        throw err;
      } finally {
        release();
      }
    },
    async send(id, text, options = {}) {
      mustGet(id);
      if (!text.trim()) throw new SessionError('bad_request', 'The message is empty.', '消息是空的。');
      if (text.length > MAX_MESSAGE_CHARS) {
        throw new SessionError(
          'bad_request',
          `The message is too long (${text.length} characters, at most ${MAX_MESSAGE_CHARS}).`,
          `消息太长了（${text.length} 个字符，最多 ${MAX_MESSAGE_CHARS} 个）。`,
        );
      }
      if (running.has(id))
        throw new SessionError(
          'busy',
          'This session is still working on the previous message. Wait, or abort it.',
          '这个会话还在处理上一条消息。请稍等，或先停止它。',
        );
      if (running.size >= maxRunning) {
        throw new SessionError(
          'too_many',
          `${running.size} sessions are already running (the limit is ${maxRunning}). Try again in a moment.`,
          `已经有 ${running.size} 个会话在运行（上限是 ${maxRunning} 个）。请稍后再试。`,
        );
      }
      const controller = new AbortController();
      const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
      let settle!: (value: unknown) => void;
      const run = { controller, done: new Promise<unknown>((resolve) => (settle = resolve)) };
      running.set(id, run);
      try {
        const release = await locks.acquire(id, { waitMs: options.waitMs ?? 0, signal, onWait: options.onWait });
        if (!release) {
          const pid = locks.holder(id);
          throw new SessionError(
            'busy',
            `This session is busy with a turn in another Zhixing process${pid ? ` (pid ${pid})` : ''}. Wait for it to finish, or start a new session.`,
            `这个会话正在另一个知行进程${pid ? `（pid ${pid}）` : ''}中回答。等它完成，或开一个新会话。`,
          );
        }
        return await turn(id, text, signal).finally(release);
      } finally {
        // Whoever waits for this run (delete) goes on only once its lock is released.
        settle(undefined);
        running.delete(id);
      }
    },
  };

  function lastUserText(id: string): string {
    const user = store.messages
      .listRecent(id, LANG_WINDOW)
      .filter((m) => m.role === 'user')
      .at(-1);
    return user?.parts.map((p) => (p.type === 'text' ? p.text : '')).join(' ') ?? '';
  }

  /** One turn with the session marked busy, then idle (or error), and its title settled. */
  async function turn(id: string, text: string, signal: AbortSignal): Promise<TurnResult> {
    deps.events?.sync(id);
    bus.emit({ type: 'session.status', sessionId: id, status: 'busy' });
    try {
      // Read now, under the lock: another process may have named the session meanwhile.
      const titled = mustGet(id).title ? undefined : nameSession(id, text);
      const lang = deps.lang ?? deps.detectLang(text);
      const skills = deps.skills && deps.tools.get('skill') ? await deps.skills() : undefined;
      const systemPrompt = buildSystemPrompt({
        now: new Date(now()),
        lang,
        userName: store.prefs.get('user.name'),
        toolNames: deps.tools.names(),
        skills,
      });
      const inPrompt = promptSources(skills ?? [], lang);
      const result = await runTurn(
        { ...deps, snapshots: deps.undo },
        {
          sessionId: id,
          text,
          workspace: deps.workspace,
          systemPrompt,
          inPrompt,
          lang,
          maxSteps: deps.maxSteps,
          limits: { maxReplyChars: deps.maxReplyChars ?? DEFAULT_MAX_REPLY_CHARS },
          deadlineMs: deps.turnTimeoutMs,
          signal,
        },
      );
      if (titled)
        await Promise.race([titled, new Promise<void>((resolve) => setTimeout(resolve, TITLE_GRACE_MS).unref())]);
      bus.emit({ type: 'session.status', sessionId: id, status: result.stopReason === 'error' ? 'error' : 'idle' });
      return result;
    } catch (err) {
      bus.emit({ type: 'session.status', sessionId: id, status: 'error' });
      throw err;
    }
  }
}
