import { realpathSync } from 'node:fs';
import { createInterface, type Interface } from 'node:readline';
import type { App } from '../app.js';
import type { PendingAsk, PermissionReply } from '../permission/permission.js';
import { displayPath, isInside } from '../tools/sandbox.js';
import type { CliText } from './messages.js';
import type { CliIo } from './cli-io.js';
import { plainText } from './terminal-text.js';

/** y / yes / 是 → once; a / always / 总是 → always; n / no / 否 / an empty line → deny; anything else: ask again. */
export function parseAskAnswer(line: string): PermissionReply | undefined {
  const word = line.trim().toLowerCase();
  if (['y', 'yes', '是'].includes(word)) return 'once';
  if (['a', 'always', '总是'].includes(word)) return 'always';
  if (['', 'n', 'no', '否'].includes(word)) return 'deny';
  return undefined;
}

/** What the ask touches as the user sees it: relative to the workspace when inside it, never the home's absolute path. */
const shownTarget = (ask: PendingAsk, workspace: string) =>
  plainText(isInside(workspace, ask.target) ? displayPath(workspace, ask.target) : ask.target);

/** `Allow file_write to notes/a.txt? [y]es once / [a]lways / [n]o` */
const question = (ask: PendingAsk, workspace: string, t: CliText) =>
  t.permissionAsk(plainText(ask.tool), shownTarget(ask, workspace));

/** A sub-command is shown on one line of at most this many characters; longer ones are cut. */
const MAX_PART_CHARS = 160;
/** More sub-commands than this are summed up in a count. */
const MAX_PARTS_SHOWN = 12;

const oneLine = (text: string, max: number) => {
  const line = plainText(text).replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/**
 * The lines shown above a command line's question: each sub-command it would run, flagged when what
 * it runs cannot be checked, and why it must ask. Empty for asks without parts.
 */
export function askDetails(
  ask: Pick<PendingAsk, 'parts' | 'mustAsk'>,
  t: Pick<CliText, 'askRuns' | 'askOpaque' | 'askMust' | 'askPartAsks'>,
): string[] {
  const lines: string[] = [];
  const parts = ask.parts ?? [];
  if (parts.length) lines.push(t.askRuns);
  parts.slice(0, MAX_PARTS_SHOWN).forEach((p, i) => {
    // Which parts the question is about, when the rules allow some and leave others open.
    const asks = p.decision === 'ask' && parts.some((x) => x.decision !== 'ask') ? ` — ${t.askPartAsks}` : '';
    const opaque = p.opaque !== undefined ? ` — ${t.askOpaque(oneLine(p.opaque, MAX_PART_CHARS))}` : '';
    lines.push(`  ${i + 1}. ${oneLine(p.text, MAX_PART_CHARS)}${asks}${opaque}`);
  });
  if (parts.length > MAX_PARTS_SHOWN) lines.push(`  … +${parts.length - MAX_PARTS_SHOWN}`);
  if (ask.mustAsk) lines.push(t.askMust(oneLine(ask.mustAsk, MAX_PART_CHARS)));
  return lines;
}

const withDetails = (ask: PendingAsk, t: CliText) =>
  askDetails(ask, t)
    .map((l) => `${l}\n`)
    .join('');

const isOpen = (app: App, id: string) => app.permission.pending().some((a) => a.id === id);

/**
 * Replies for the user, marking the ask as answered here while the reply's events run. An "always"
 * the store could not keep still allows this call; the store's error is shown.
 */
function answer(app: App, io: CliIo, id: string, reply: PermissionReply, mark: (id: string | undefined) => void): void {
  mark(id);
  try {
    app.permission.reply(id, reply);
  } catch (err) {
    io.stderr(`zhixing: ${plainText(err instanceof Error ? err.message : String(err))}\n`);
  } finally {
    mark(undefined);
  }
}

export interface ReplAsks {
  /** Gives a line to the ask on screen, if there is one: true when the line was its answer (or a retry). */
  take(line: string): boolean;
  /** Input has ended: open asks, and later ones, are refused, since nobody can answer them. */
  endOfInput(): void;
  stop(): void;
}

/**
 * The REPL's side of permission asks: the session's asks are shown one at a time, and the next line
 * typed answers the first. A question withdrawn meanwhile (the turn was stopped) has its line ended.
 */
export function createReplAsks(options: {
  app: App;
  io: CliIo;
  /** The REPL's input: shows the question as a prompt whose line answers it, or ends that line. */
  line: { prompt(question: string, kind: 'answer'): void; withdraw(): void };
  interactive: boolean;
  sessionId: () => string;
  /** Whether the turn's output so far ends a line, so a question starts on its own line. */
  atLineStart: () => boolean;
}): ReplAsks {
  const { app, io, line, interactive } = options;
  const workspace = realpathSync(app.config.workspace);
  const queue: PendingAsk[] = [];
  let ended = false;
  let answering: string | undefined;
  let detailed: string | undefined;

  const show = () => {
    const head = queue[0];
    if (!head) return;
    const text = question(head, workspace, io.text);
    if (!interactive) return io.stdout(`${withDetails(head, io.text)}${text}\n`);
    if (!options.atLineStart()) io.stdout('\n');
    // The parts once per ask: a retried answer only asks again.
    if (detailed !== head.id) io.stdout(withDetails(head, io.text));
    detailed = head.id;
    line.prompt(`${io.style.bold(text)} `, 'answer');
  };

  const offs = [
    app.bus.on('permission.asked', ({ type: _type, seq: _seq, ...ask }) => {
      // Asks answered at once (--yes) are not shown: the trace line tells what ran.
      if (ask.sessionId !== options.sessionId() || !isOpen(app, ask.id)) return;
      if (ended) {
        io.stdout(`${withDetails(ask, io.text)}${question(ask, workspace, io.text)}\n${io.text.noInputToAnswer}\n`);
        app.permission.refuseUnanswered(ask.id);
        return;
      }
      queue.push(ask);
      if (queue.length === 1) show();
    }),
    app.bus.on('permission.replied', (e) => {
      const i = queue.findIndex((a) => a.id === e.id);
      if (i < 0) return;
      queue.splice(i, 1);
      if (i !== 0) return;
      // Withdrawn while on screen: end the question's line before anything else is printed.
      if (answering !== e.id && interactive) line.withdraw();
      show();
    }),
  ];

  return {
    take(line) {
      const head = queue[0];
      if (!head) return false;
      const reply = parseAskAnswer(line);
      if (!reply) {
        show();
        return true;
      }
      answer(app, io, head.id, reply, (id) => (answering = id));
      return true;
    },
    endOfInput() {
      ended = true;
      if (!queue.length) return;
      if (interactive) line.withdraw();
      io.stdout(`${io.text.noInputToAnswer}\n`);
      answering = queue[0]!.id;
      for (const ask of [...queue]) app.permission.refuseUnanswered(ask.id);
      answering = undefined;
    },
    stop: () => offs.forEach((off) => off()),
  };
}

/**
 * A one-shot turn's asks. With a terminal, each is asked on stderr and answered from stdin (y/a/n);
 * without one nobody can answer, so it is refused with a line saying how to approve it (--yes).
 * `--yes` answers asks before this sees them. Returns the function that stops listening.
 */
export function answerOneShotAsks(
  app: App,
  io: CliIo,
  onInterrupt: () => void,
  input: NodeJS.ReadStream = process.stdin,
  output: NodeJS.WriteStream = process.stderr,
): () => void {
  const workspace = realpathSync(app.config.workspace);
  const queue: PendingAsk[] = [];
  let rl: Interface | undefined;
  let answering: string | undefined;
  let detailed: string | undefined;

  const next = () => {
    const head = queue[0];
    if (!head) {
      rl?.close();
      rl = undefined;
      return;
    }
    if (!rl) {
      rl = createInterface({ input, output, terminal: true });
      rl.on('SIGINT', onInterrupt);
    }
    if (detailed !== head.id) output.write(withDetails(head, io.text));
    detailed = head.id;
    rl.question(`${question(head, workspace, io.text)} `, (line) => {
      const reply = parseAskAnswer(line);
      if (!reply) return next();
      answer(app, io, head.id, reply, (id) => (answering = id));
    });
  };

  const offs = [
    app.bus.on('permission.asked', ({ type: _type, seq: _seq, ...ask }) => {
      if (!isOpen(app, ask.id)) return;
      if (!input.isTTY) {
        const say = ask.needsPerson ? io.text.needsPerson : io.text.needsApproval;
        io.stderr(`${withDetails(ask, io.text)}${say(plainText(ask.tool), shownTarget(ask, workspace))}\n`);
        app.permission.refuseUnanswered(ask.id);
        return;
      }
      queue.push(ask);
      if (queue.length === 1) next();
    }),
    app.bus.on('permission.replied', (e) => {
      const i = queue.findIndex((a) => a.id === e.id);
      if (i < 0) return;
      queue.splice(i, 1);
      if (i !== 0) return;
      // Withdrawn while asked (Ctrl-C): drop the question, end its line.
      if (answering !== e.id) {
        rl?.close();
        rl = undefined;
        output.write('\n');
      }
      next();
    }),
  ];
  return () => {
    offs.forEach((off) => off());
    rl?.close();
  };
}
