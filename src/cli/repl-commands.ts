/**
 * The REPL's slash commands, and their Tab completion. What a command answers goes to stdout; what
 * went wrong (an unknown command, a bad number, a session that is gone) to stderr.
 */
import type { App } from '../app.js';
import { maskKey, safeUrl } from '../config/config.js';
import { modelNameProblem, type ModelCatalog } from '../llm/model-catalog.js';
import type { SessionRecord } from '../contract/session.js';
import type { Completion } from './line-editor/line-editor.js';
import type { CliIo } from './cli-io.js';
import { MCP_VERBS, mcpCommand } from './mcp-repl.js';
import { createMemoryRepl, MEMORY_VERBS, type ReplResult } from './memory-repl.js';
import { permissionsCommand } from './permissions-command.js';
import { PREFS_VERBS, prefsCommand } from './prefs-repl.js';
import { lastTurns, renderHistory } from './repl-history-view.js';
import type { ReplText } from './repl-text.js';
import { resolveSessionRef } from './session-ref.js';
import { sessionLine } from './sessions-command.js';
import { plainText } from './terminal-text.js';

const DEFAULT_HISTORY_TURNS = 10;
/** Answers to a y/N question that mean yes; anything else, an empty line included, is no. */
const YES = new Set(['y', 'yes', '是', '好', '确定']);

/** Every command, in the order /help and completion list them; those followed by a space take an argument. */
const COMMANDS = [
  '/help',
  '/sessions',
  '/new ',
  '/switch ',
  '/history ',
  '/delete ',
  '/rename ',
  '/model ',
  '/permissions',
  '/mcp',
  '/memory',
  '/prefs',
  '/undo',
  '/exit',
];
const PERMISSION_VERBS = ['allow ', 'ask ', 'deny ', 'remove ', 'forget '];

export interface CommandContext {
  app: App;
  io: CliIo;
  rt: ReplText;
  catalog: ModelCatalog;
  session(): string;
  setSession(id: string): void;
  /** Shows `question` and waits for the line that answers it ('' when none comes). */
  ask(question: string): Promise<string>;
}

export interface SlashCommands {
  /** Runs one command line; 'exit' when the REPL should end. */
  run(line: string, signal: AbortSignal): Promise<'exit' | undefined>;
  complete(before: string): Completion | undefined;
}

export function createSlashCommands(ctx: CommandContext): SlashCommands {
  const { app, io, rt } = ctx;
  const t = io.text;
  const say = (s: string) => io.stdout(`${s}\n`);
  const fail = (s: string) => io.stderr(`${s}\n`);
  // Titles come from the model or the user's first words: shown as plain text.
  const titleOf = (s: SessionRecord) => plainText(s.title) || s.id;
  // /switch N and /delete N mean the N the user last saw in /sessions, even if the order changed since.
  let shown: SessionRecord[] | undefined;
  let models: string[] | undefined;
  const memories = createMemoryRepl(app.memory);
  const lang = () => io.lang?.() ?? app.config.lang ?? app.config.uiLang;
  const confirm = async (question: string) => YES.has((await ctx.ask(question)).trim().toLowerCase());
  const show = (r: ReplResult) => (r.error ? fail(r.text) : say(r.text));

  /** The session `arg` names, or undefined after saying on stderr why there is none. */
  function sessionFor(cmd: string, arg: string): SessionRecord | undefined {
    if (!arg) return void fail(rt.sessionUsage(cmd));
    const ref = resolveSessionRef(shown ?? app.sessions.list(), arg);
    if (ref.kind === 'no-number') return void fail(rt.noSuchSessionNumber(ref.n, ref.count));
    if (ref.kind === 'ambiguous') return void fail(rt.ambiguousSession(plainText(arg), ref.count));
    if (ref.kind === 'none') return void fail(t.noSuchSession(plainText(arg)));
    if (!app.sessions.get(ref.session.id)) return void fail(t.goneSession(plainText(arg)));
    return ref.session;
  }

  async function remove(arg: string) {
    const s = sessionFor('delete', arg);
    if (!s) return;
    const count = app.sessions.get(s.id)?.messageCount ?? s.messageCount;
    const answer = await ctx.ask(rt.confirmDelete(titleOf(s), count));
    if (!YES.has(answer.trim().toLowerCase())) return say(rt.notDeleted);
    // Busy in another process: refused with a SessionError, which the REPL shows on stderr.
    await app.sessions.delete(s.id);
    say(t.deleted(titleOf(s)));
    if (s.id === ctx.session()) ctx.setSession(app.sessions.mostRecent()?.id ?? app.sessions.create().id);
  }

  async function model(arg: string, signal: AbortSignal) {
    const { llm, config: c } = app;
    if (arg) {
      if (llm.mode === 'offline') return fail(rt.offlineNoSwitch);
      const problem = modelNameProblem(arg);
      if (problem) return fail(rt.badModelName(problem));
      if (!llm.setModel) return fail(rt.modelFixed(plainText(llm.model)));
      llm.setModel(arg);
      return say(rt.modelSwitched(plainText(arg)));
    }
    if (llm.mode === 'offline') return say(t.offlineModel);
    say(
      plainText(
        `${llm.provider} · ${llm.model} · ${safeUrl(c.baseUrl ?? '')}${c.apiKey ? ` · ${t.key} ${maskKey(c.apiKey)}` : ''}`,
      ),
    );
    // Ctrl-C stops waiting for a slow provider.
    const stopped = new Promise<undefined>((resolve) =>
      signal.addEventListener('abort', () => resolve(undefined), { once: true }),
    );
    const list = await Promise.race([ctx.catalog.list(), stopped]);
    if (!list) return;
    models = list.models;
    for (const m of list.models) say(`${m === list.current ? '*' : ' '} ${plainText(m)}`);
    if (list.source === 'config') say(io.style.dim(rt.modelsUnlisted));
  }

  return {
    async run(line, signal) {
      const [cmd = '', ...rest] = line.slice(1).split(/\s+/);
      const arg = rest.join(' ').trim();
      switch (cmd) {
        case 'help':
          say(rt.help(DEFAULT_HISTORY_TURNS));
          break;
        case 'sessions': {
          const list = (shown = app.sessions.list());
          list.forEach((s, i) => say(sessionLine(s, i + 1, s.id === ctx.session(), io)));
          if (!list.length) say(t.noSessions);
          break;
        }
        case 'new':
          ctx.setSession(app.sessions.create(arg).id);
          say(t.newSession(plainText(arg)));
          break;
        case 'switch': {
          const s = sessionFor('switch', arg);
          if (!s) break;
          ctx.setSession(s.id);
          say(t.switched(titleOf(s)));
          break;
        }
        case 'history': {
          const n = arg ? Number(arg) : DEFAULT_HISTORY_TURNS;
          if (!Number.isInteger(n) || n < 1) fail(t.historyUsage);
          else say(renderHistory(lastTurns(app.sessions.history(ctx.session()), n), io) || t.noMessages);
          break;
        }
        case 'delete':
          await remove(arg);
          break;
        case 'rename':
          if (!arg) fail(t.renameUsage);
          else say(t.renamed(plainText(app.sessions.rename(ctx.session(), arg).title)));
          break;
        case 'model':
          await model(arg, signal);
          break;
        case 'permissions': {
          // The pattern is the rest of the line as typed: its spaces are part of it.
          const raw = line.slice(1 + cmd.length);
          const r = permissionsCommand(app.permission, raw, io.lang?.() ?? app.config.lang ?? app.config.uiLang);
          if (r.error) fail(r.text);
          else say(r.text);
          break;
        }
        case 'mcp': {
          const r = await mcpCommand(
            app.mcp,
            arg,
            io.lang?.() ?? app.config.lang ?? app.config.uiLang,
            io.style,
            signal,
          );
          if (r.error) fail(r.text);
          else say(r.text);
          break;
        }
        case 'memory': {
          const titleOf = (id: string) => app.sessions.get(id)?.title;
          show(await memories.run(arg, { session: ctx.session(), lang: lang(), style: io.style, confirm, titleOf }));
          break;
        }
        case 'prefs':
          show(
            await prefsCommand(app.preferences, arg, { lang: lang(), offline: app.llm.mode === 'offline', confirm }),
          );
          break;
        case 'undo': {
          // Between turns only (commands never run while one does); the sentence speaks the session's language.
          const result = await app.sessions.undo(ctx.session());
          say(plainText(result.message));
          break;
        }
        case 'exit':
        case 'quit':
          return 'exit';
        default:
          fail(t.unknownCommand(plainText(cmd)));
      }
      return undefined;
    },

    complete(before) {
      if (!before.startsWith('/') || before.includes('\n')) return undefined;
      const space = before.indexOf(' ');
      if (space < 0)
        return {
          start: 0,
          candidates: COMMANDS.filter((c) => c.startsWith(before)).map((value) => ({ value, label: value.trim() })),
        };
      const cmd = before.slice(1, space);
      const typed = before.slice(space + 1);
      // `/mcp reconnect ev` completes a server's name.
      const verb = /^(reconnect|enable|disable) ([^ ]*)$/.exec(typed);
      if (cmd === 'mcp' && verb) {
        const start = before.length - verb[2]!.length;
        return {
          start,
          candidates: app.mcp
            .list()
            .map((v) => v.name)
            .filter((n) => n.startsWith(verb[2]!))
            .map((value) => ({ value })),
        };
      }
      if (typed.includes(' ')) return undefined;
      if (cmd === 'switch' || cmd === 'delete') {
        const list = shown ?? app.sessions.list();
        const candidates = list
          .map((s, i) => ({ value: String(i + 1), label: `${i + 1}. ${plainText(s.title) || t.untitled}` }))
          .filter((c) => c.value.startsWith(typed));
        return { start: space + 1, candidates };
      }
      if (cmd === 'permissions')
        return {
          start: space + 1,
          candidates: PERMISSION_VERBS.filter((v) => v.startsWith(typed)).map((value) => ({
            value,
            label: value.trim(),
          })),
        };
      if (cmd === 'memory')
        return {
          start: space + 1,
          candidates: MEMORY_VERBS.filter((v) => v.startsWith(typed)).map((value) => ({ value, label: value.trim() })),
        };
      if (cmd === 'prefs')
        return {
          start: space + 1,
          candidates: PREFS_VERBS.filter((v) => v.startsWith(typed)).map((value) => ({ value, label: value.trim() })),
        };
      if (cmd === 'mcp')
        return {
          start: space + 1,
          candidates: MCP_VERBS.filter((v) => v.startsWith(typed)).map((value) => ({ value, label: value.trim() })),
        };
      if (cmd === 'model' && models)
        return { start: space + 1, candidates: models.filter((m) => m.startsWith(typed)).map((value) => ({ value })) };
      return undefined;
    },
  };
}
