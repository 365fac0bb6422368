import { parseArgs } from 'node:util';
import { parseError, usage } from './arg-errors.js';
import { parseMcp } from './mcp-args.js';
import type { Command, OneShotFlags } from './command.js';

/** An argument that starts with "-" but is not shaped like an option: "-3+5", "-5 度算冷吗". */
const OPTION_SHAPE = /^--?[a-z][a-z-]*(?:=.*)?$/i;
/** Marks such arguments through option parsing; no real argument can start with a NUL. */
const MESSAGE_MARK = '\u0000';

/** Commands named by one word, with the options each takes. Followed by more words, the word is part of a message. */
const SUBCOMMANDS = {
  help: [],
  sessions: ['--json'],
  undo: ['--session', '--json'],
  config: ['--json', '--offline', '--model'],
  chat: ['--session', '--new', '--offline', '--yes', '--model', '--show-actions'],
} as const satisfies Record<string, readonly string[]>;

/** Commands in the contract that later versions add; named so the error can say so. */
const LATER_COMMANDS = new Set(['eval']);
const DEFAULT_SERVE_HOST = '127.0.0.1';
const DEFAULT_SERVE_PORT = 4317;
const MAX_PORT = 65_535;

/** `zhixing serve [--port N] [--host H]`; port 0 lets the system pick a free one. */
function parseServe(argv: string[]): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      options: { port: { type: 'string' }, host: { type: 'string' }, offline: { type: 'boolean', default: false } },
    });
  } catch (err) {
    return parseError(err, ['port', 'host', 'offline']);
  }
  const { port = String(DEFAULT_SERVE_PORT), host = DEFAULT_SERVE_HOST, offline } = parsed.values;
  const n = Number(port);
  if (!/^\d+$/.test(port) || n > MAX_PORT)
    return usage(
      `--port must be a number from 0 to ${MAX_PORT} (got "${port}").`,
      `--port 必须是 0 到 ${MAX_PORT} 之间的数字（收到的是「${port}」）。`,
    );
  if (!host.trim()) return usage('--host needs an address, e.g. 127.0.0.1.', '--host 需要一个地址，例如 127.0.0.1。');
  return { kind: 'serve', host: host.trim(), port: n, offline };
}

const ONE_SHOT_OPTIONS = [
  'json',
  'show-actions',
  'session',
  'new',
  'offline',
  'yes',
  'mcp',
  'model',
  'help',
  'version',
];

export function parseCommand(argv: string[]): Command {
  if (argv[0] !== undefined && LATER_COMMANDS.has(argv[0])) return { kind: 'unavailable', name: argv[0] };
  if (argv[0] === 'serve') return parseServe(argv.slice(1));
  if (argv[0] === 'mcp') return parseMcp(argv.slice(1));
  let parsed;
  try {
    parsed = parseArgs({
      args: argv.map((a) => (a.startsWith('-') && a !== '--' && !OPTION_SHAPE.test(a) ? MESSAGE_MARK + a : a)),
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean', default: false },
        'show-actions': { type: 'boolean', default: false },
        session: { type: 'string' },
        new: { type: 'boolean', default: false },
        offline: { type: 'boolean', default: false },
        yes: { type: 'boolean', short: 'y', default: false },
        mcp: { type: 'boolean', default: false },
        model: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', short: 'v', default: false },
      },
    });
  } catch (err) {
    return parseError(err, ONE_SHOT_OPTIONS);
  }
  const { values: v } = parsed;
  const positionals = parsed.positionals.map((p) => (p.startsWith(MESSAGE_MARK) ? p.slice(1) : p));
  if (v.help) return { kind: 'help' };
  if (v.version) return { kind: 'version' };
  if (v.session !== undefined && v.new)
    return usage('Use either --session ID or --new, not both.', '--session 和 --new 只能用一个。');
  if (v.session !== undefined && !v.session.trim())
    return usage('--session needs a session id or number.', '--session 需要一个会话 id 或编号。');
  if (v.model !== undefined && !v.model.trim())
    return usage(
      '--model needs a model name: zhixing --model NAME "<message>".',
      '--model 需要一个模型名：zhixing --model 名称 "<消息>"。',
    );
  const flags: OneShotFlags = {
    json: v.json,
    showActions: v['show-actions'],
    session: v.session,
    new: v.new,
    offline: v.offline,
    yes: v.yes,
    mcp: v.mcp,
    model: v.model?.trim(),
  };

  const [first, ...rest] = positionals;
  if (first === undefined) return { kind: 'repl', flags, chat: false };
  // A command's name alone is that command; with more words it is part of a message (`zhixing config my router`).
  if (rest.length === 0 && Object.hasOwn(SUBCOMMANDS, first)) {
    const given = Object.entries({
      '--json': flags.json,
      '--show-actions': flags.showActions,
      '--session': flags.session !== undefined,
      '--new': flags.new,
      '--offline': flags.offline,
      '--yes': flags.yes,
      '--mcp': flags.mcp,
      '--model': flags.model !== undefined,
    })
      .filter(([, set]) => set)
      .map(([name]) => name);
    const allowed: readonly string[] = SUBCOMMANDS[first as keyof typeof SUBCOMMANDS];
    const wrong = given.find((name) => !allowed.includes(name));
    if (wrong) {
      return usage(
        `zhixing ${first} does not take ${wrong}${allowed.length ? ` (it takes ${allowed.join(', ')})` : ''}.`,
        `zhixing ${first} 不接受 ${wrong}${allowed.length ? `（它接受 ${allowed.join('、')}）` : ''}。`,
      );
    }
    if (first === 'help') return { kind: 'help' };
    if (first === 'sessions') return { kind: 'sessions', json: flags.json };
    if (first === 'undo') return { kind: 'undo', session: flags.session, json: flags.json };
    if (first === 'config') return { kind: 'config', json: flags.json, offline: flags.offline, model: flags.model };
    return { kind: 'repl', flags, chat: true };
  }
  const words = first === 'ask' ? rest : positionals;
  const message = words.join(' ').trim();
  if (!message) return usage('The message is empty: zhixing "<message>".', '消息是空的：zhixing "<消息>"。');
  return { kind: 'ask', message, flags };
}
