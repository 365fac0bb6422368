import type { App } from '../app.js';
import type { TurnResult } from '../agent/run-turn.js';
import { SessionError } from '../sessions/sessions.js';
import type { OneShotFlags } from './command.js';
import { answerOneShotAsks } from './permission-prompt.js';
import { attachPrinter } from './printer.js';
import { jsonResult } from '../sessions/json-result.js';
import type { CliIo } from './cli-io.js';
import { cliText, type CliText } from './messages.js';
import { resolveSessionRef } from './session-ref.js';
import { jsonLine } from './terminal-text.js';
import { say } from '../i18n.js';
import { serversNamed } from '../mcp/needed.js';

/**
 * The session a one-shot call (or the REPL) starts in: --session (a number as `zhixing sessions` and
 * `/sessions` show them, 1 the most recent; an id; or the unique start of an id), --new, else the most
 * recent (so follow-ups work).
 */
export function pickSession(app: App, flags: OneShotFlags): string {
  if (flags.session) {
    const ref = resolveSessionRef(app.sessions.list(), flags.session);
    if (ref.kind === 'found') return ref.session.id;
    const missing = (text: (t: CliText) => string) =>
      new SessionError('not_found', text(cliText('en')), text(cliText('zh')));
    if (ref.kind === 'no-number') throw missing((t) => t.noSuchSessionNumber(ref.n, ref.count));
    if (ref.kind === 'ambiguous') throw missing((t) => t.ambiguousSession(ref.count, flags.session!));
    throw missing((t) => t.noSessionId(flags.session!));
  }
  if (!flags.new) {
    const recent = app.sessions.mostRecent();
    if (recent) return recent.id;
  }
  return app.sessions.create().id;
}

/** The longest a one-shot waits for an MCP server its message names to connect. */
export const MCP_WAIT_MS = 5_000;

/**
 * MCP servers connect in the background and never hold up a turn that does not need them; one the
 * message names (and the model could use) is waited for while it connects, at most MCP_WAIT_MS.
 * Says on stderr which of them were not ready.
 */
export async function waitForNamedServers(
  app: App,
  message: string,
  io: Pick<CliIo, 'stderr' | 'style' | 'lang'>,
  waitMs = MCP_WAIT_MS,
): Promise<string[]> {
  if (app.llm.mode !== 'llm') return [];
  const connecting = app.mcp
    .list()
    .filter((v) => v.state === 'connecting')
    .map((v) => v.name);
  const named = serversNamed(message, connecting);
  if (!named.length) return [];
  const late = await app.mcp.ready(waitMs, named);
  if (late.length) {
    const lang = io.lang?.() ?? app.config.lang ?? app.config.uiLang;
    const list = late.join(', ');
    io.stderr(
      io.style.dim(
        `zhixing: ${say(lang, `MCP 服务器 ${list} 在 ${waitMs / 1000} 秒内没有连上，这一轮不使用它的工具。`, `MCP server ${list} was not ready after ${waitMs / 1000} s; this turn goes on without its tools.`)}\n`,
      ),
    );
  }
  return late;
}

/** One turn from the command line. Returns the exit code. Ctrl-C stops the turn; a second Ctrl-C quits. */
export async function runOneShot(app: App, message: string, flags: OneShotFlags, io: CliIo): Promise<number> {
  let sessionId: string | undefined;
  try {
    await waitForNamedServers(app, message, io);
    sessionId = pickSession(app, flags);
    return await runTurn(app, sessionId, message, flags, io, (id) => (sessionId = id));
  } catch (err) {
    // `--json` promises one object on stdout whatever happens; the caller still says it on stderr.
    if (flags.json) {
      const code = (err as { code?: unknown }).code;
      const error = {
        code: typeof code === 'string' ? code : 'internal',
        message: err instanceof Error ? err.message : String(err),
      };
      io.stdout(jsonLine({ session: sessionId ?? null, mode: app.llm.mode, reply: '', actions: [], error }));
    }
    throw err;
  }
}

/** A follow-up waits this long for the most recent session to be free before starting a new one. */
const RECENT_SESSION_WAIT_MS = 3_000;
/** A session named with --session is waited for this long: the user asked for that one. */
const NAMED_SESSION_WAIT_MS = 60_000;

async function runTurn(
  app: App,
  picked: string,
  message: string,
  flags: OneShotFlags,
  io: CliIo,
  setSession: (id: string) => void,
): Promise<number> {
  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts > 1) process.exit(130);
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  const stopAsking = flags.yes ? () => {} : answerOneShotAsks(app, io, onSigint);
  let sessionId = picked;
  const attach = () =>
    flags.json
      ? () => {}
      : attachPrinter({
          bus: app.bus,
          sessionId,
          write: io.stdout,
          style: io.style,
          showActions: flags.showActions,
          markdown: io.markdown,
          live: io.live,
          lang: io.lang ?? (() => app.config.lang ?? app.config.uiLang),
        });
  let detach = attach();
  // Continuing the most recent session is a convenience: when another process is mid-turn there,
  // a short wait, then a session of our own, beats interleaving two conversations.
  const implicit = !flags.session && !flags.new;
  try {
    let result: TurnResult;
    try {
      result = await app.sessions.send(sessionId, message, {
        signal: controller.signal,
        waitMs: implicit ? RECENT_SESSION_WAIT_MS : NAMED_SESSION_WAIT_MS,
        onWait: (pid) => !implicit && io.stderr(io.style.dim(`${io.text.waitingForSession(pid)}\n`)),
      });
    } catch (err) {
      // Ctrl-C while waiting for another process's turn: stopped before anything ran.
      if (controller.signal.aborted) {
        if (flags.json)
          io.stdout(
            jsonLine({
              session: sessionId,
              mode: app.llm.mode,
              reply: '',
              actions: [],
              error: { code: 'aborted', message: io.text.stoppedWaiting },
            }),
          );
        io.stderr(`${io.text.stoppedWaiting}\n`);
        return 130;
      }
      if (!(implicit && err instanceof SessionError && err.code === 'busy')) throw err;
      detach();
      sessionId = app.sessions.create().id;
      setSession(sessionId);
      io.stderr(io.style.dim(`${io.text.startedNewSession(sessionId)}\n`));
      detach = attach();
      result = await app.sessions.send(sessionId, message, { signal: controller.signal });
    }
    if (flags.json) io.stdout(jsonLine(jsonResult(sessionId, app.llm.mode, result)));
    // The model service could not be reached at all (refused, no such host): the offline planner still can help.
    if (result.error?.code === 'network') io.stderr(`${io.text.offlineHint}\n`);
    if (result.error) return 1;
    return result.stopReason === 'aborted' ? 130 : 0;
  } finally {
    detach();
    stopAsking();
    process.off('SIGINT', onSigint);
  }
}
