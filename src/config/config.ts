import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { z } from 'zod';
import { PROVIDER_PRESETS } from './presets.js';
import { hasControlChars } from './control-chars.js';
import { resolveEndpoint, UnknownProviderError, type Layer, type Source } from './endpoint.js';
import { EnvFileError, readEnvFile as readEnv } from './env-file.js';
import { CONFIG_FILE, ENV_FILE, isWithin, realPathOf } from './paths.js';
import { readSettingsFile, SettingsFileError } from './settings-file.js';
import { readShellSettings, ShellFileSettings, ShellSettingError, type ShellSettings } from './shell-settings.js';
import { checkRules } from '../permission/rules-check.js';
import type { PermissionRules } from '../contract/permission.js';
import { resolveEmbedding, type EmbeddingEndpoint } from './embedding-endpoint.js';
import {
  baseUrlProblem,
  echo,
  langProblem,
  originLabel,
  parseLang,
  unknownKeyWarnings,
  type SettingOrigin,
} from './setting-checks.js';
import { readMcpServers, type McpServerSettings } from './mcp-settings.js';
import { defaultContextWindow, MAX_CONTEXT_WINDOW, MIN_CONTEXT_WINDOW, onOff } from './context-settings.js';
import { readWebSettings, WebFileSettings, type WebSettings } from './web-settings.js';
import { ConfigError } from './config-error.js';

const DEFAULT_MAX_STEPS = 8;
const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;
const DEFAULT_HEADERS_TIMEOUT_MS = 60_000;
const DEFAULT_TOOL_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_REPLY_CHARS = 200_000;
const DEFAULT_MAX_RETRIES = 3;
const MAX_RETRIES = 10;
/** A whole turn, every model step and tool call in it, ends by then: ten minutes. */
const DEFAULT_TURN_TIMEOUT_MS = 600_000;
const MAX_TIMEOUT_MS = 3_600_000;
const MAX_TURN_TIMEOUT_MS = 86_400_000;
const DEFAULT_GEOCODING_URL = 'https://geocoding-api.open-meteo.com/v1/search';
const DEFAULT_WEATHER_URL = 'https://api.open-meteo.com/v1/forecast';
const DB_FILE = 'zhixing.db';
/** Skills live in a folder of this name in the home, and in `.zhixing/` of the folder Zhixing runs in. */
const SKILLS_FOLDER = 'skills';
const PROJECT_FOLDER = '.zhixing';
const ZHIXING_PREFIX = 'ZHIXING_';
/** Permission bits for the group and others: a file holding a key should have none of them. */
const SHARED_MODE_BITS = 0o077;
/** Names that hold a key in a .env: ZHIXING_API_KEY, OPENAI_API_KEY, ZHIXING_EMBEDDING_API_KEY, or another tool's. */
const KEY_NAME = /_API_KEY$/;
// The layers, highest first; the last two are the home's, which only the user writes.
const CWD_ENV_LAYER = 1;
/** Settings a project's ./.env may not set (see loadConfig). */
const HOME_ONLY_NAMES = [
  'ZHIXING_EMBEDDING_BASE_URL',
  'ZHIXING_EMBEDDING_MODEL',
  'ZHIXING_EMBEDDING_API_KEY',
  'ZHIXING_GEOCODING_URL',
  'ZHIXING_WEATHER_URL',
  'ZHIXING_TOKEN',
];
const HOME_ENV_LAYER = 2;
const FILE_LAYER = 3;
/** config.json's names for what the environment calls ZHIXING_*: config.json is read as the lowest layer through them. */
const FILE_NAMES = {
  ZHIXING_PROVIDER: 'provider',
  ZHIXING_BASE_URL: 'baseUrl',
  ZHIXING_API_KEY: 'apiKey',
  ZHIXING_MODEL: 'model',
  ZHIXING_MAX_STEPS: 'maxSteps',
  ZHIXING_REQUEST_TIMEOUT_MS: 'requestTimeoutMs',
  ZHIXING_HEADERS_TIMEOUT_MS: 'headersTimeoutMs',
  ZHIXING_MAX_RETRIES: 'maxRetries',
  ZHIXING_TURN_TIMEOUT_MS: 'turnTimeoutMs',
  ZHIXING_TOOL_TIMEOUT_MS: 'toolTimeoutMs',
  ZHIXING_MAX_REPLY_CHARS: 'maxReplyChars',
  ZHIXING_LANG: 'lang',
  ZHIXING_CONTEXT_WINDOW: 'contextWindow',
  ZHIXING_COMPACTION: 'compaction',
} as const;
/** Every name config.json may hold at its top level; anything else is named in a warning. */
const FILE_KEYS: readonly string[] = [
  ...Object.values(FILE_NAMES),
  'workspace',
  'permissions',
  'mcpServers',
  'shell',
  'undo',
  'embedding',
  'web',
];

/** How much undo history is kept, from config.json's `undo`: changing turns per session, days, bytes of copies in all. */
export const UndoSettings = z
  .object({
    maxTurns: z.number().int().min(1).max(1_000).optional(),
    maxDays: z.number().positive().max(3_650).optional(),
    maxBytes: z.number().int().min(0).optional(),
  })
  .strict();
export type UndoSettings = z.infer<typeof UndoSettings>;

/** The subset of `config.json` this version reads. Unknown keys are kept for other versions and hosts. */
export const ConfigFile = z
  .object({
    provider: z.string().optional(),
    baseUrl: z.string().optional(),
    apiKey: z.string().optional(),
    model: z.string().optional(),
    maxSteps: z.number().int().min(1).max(100).optional(),
    requestTimeoutMs: z.number().int().positive().optional(),
    headersTimeoutMs: z.number().int().positive().optional(),
    maxRetries: z.number().int().min(0).optional(),
    turnTimeoutMs: z.number().int().positive().optional(),
    toolTimeoutMs: z.number().int().positive().optional(),
    maxReplyChars: z.number().int().positive().optional(),
    workspace: z.string().optional(),
    lang: z.enum(['zh', 'en']).optional(),
    contextWindow: z.number().int().optional(),
    compaction: z.boolean().optional(),
    // Read entry by entry (checkRules): one bad entry is warned about and skipped, not a reason to refuse the file.
    permissions: z.unknown().optional(),
    shell: ShellFileSettings.optional(),
    undo: UndoSettings.optional(),
    // No key here: a key belongs in .env or the environment, beside the URL it is for.
    embedding: z.object({ baseUrl: z.string().optional(), model: z.string().optional() }).optional(),
    web: WebFileSettings.optional(),
  })
  .passthrough();
export type ConfigFile = z.infer<typeof ConfigFile>;

export type { SettingOrigin } from './setting-checks.js';
export { parseLang } from './setting-checks.js';

export interface Config {
  home: string;
  workspace: string;
  dbPath: string;
  /** The user's own skills: `$ZHIXING_HOME/skills`. */
  userSkillsDir: string;
  /** The project's skills: `./.zhixing/skills` in the folder Zhixing was started in. */
  projectSkillsDir: string;
  /** `offline` when no model is configured or ZHIXING_OFFLINE=1. */
  mode: 'offline' | 'llm';
  provider: string;
  baseUrl?: string;
  apiKey?: string;
  model: string;
  maxSteps: number;
  requestTimeoutMs: number;
  /** How long to wait for a model service to start answering before giving up on it. */
  headersTimeoutMs: number;
  /** Retries of a model request that failed for now (rate limit, server error, network) after the first try. */
  maxRetries: number;
  /** The most one turn may take, model steps and tools together; then it stops and says so. */
  turnTimeoutMs: number;
  toolTimeoutMs: number;
  /** The most characters one model step may write before it is cut off. */
  maxReplyChars: number;
  /** Forced user-facing language; otherwise each turn follows the user's own words. */
  lang?: 'zh' | 'en';
  /** The model's context window in tokens: every request is built to fit it (ZHIXING_CONTEXT_WINDOW, else the preset's). */
  contextWindow: number;
  /** Whether older messages are summarised when a session nears the window; off, the context only windows. */
  compaction: boolean;
  /** The language of the program's own messages (help, errors): ZHIXING_LANG, else the locale. */
  uiLang: 'zh' | 'en';
  geocodingUrl: string;
  weatherUrl: string;
  noColor: boolean;
  /** TERM=dumb: a terminal that cannot move the cursor or show colour, so no spinner and no styling. */
  dumbTerminal: boolean;
  /**
   * `permissions` from config.json, the usable entries: a tool's name or a glob over tool names, to
   * "allow" / "ask" / "deny" or to a map from globs over what a call touches to one of those.
   */
  permissions: PermissionRules;
  /** How shell commands run: the network setting and the environment they start from. */
  shell: ShellSettings;
  /** config.json's `undo` bounds; unset ones take the defaults. */
  undo: UndoSettings;
  /** Memory's embeddings endpoint; none: memory search by words only. Its key is never printed. */
  embedding?: EmbeddingEndpoint;
  /** `mcpServers` from config.json: the MCP servers to connect to, usable entries only. */
  mcpServers: McpServerSettings[];
  /** The open web: the network policy's opt-in, the search service, the browser. */
  web: WebSettings;
  /** ZHIXING_TOKEN: the bearer token `serve` requires (and needs, off loopback). Never printed. */
  token?: string;
  /** What the user should know about how the settings were read (an ignored file, a withheld key), one line each. */
  warnings: string[];
  /** Where each setting came from, by its environment name (`ZHIXING_MODEL`…; `ZHIXING_OFFLINE` for the mode). */
  origins: Record<string, SettingOrigin>;
}

export interface LoadConfigOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Command-line override, e.g. `--offline`. */
  offline?: boolean;
  /** `--model NAME`: this run's model, instead of the configured one. */
  model?: string;
}

function readEnvFile(path: string): Layer {
  try {
    return readEnv(path) ?? {};
  } catch (err) {
    if (err instanceof EnvFileError || err instanceof SettingsFileError) throw new ConfigError(err.message, err.zh);
    throw err;
  }
}

/**
 * Where JSON.parse gave up, as " at line L, column C" worked out from the offset it reports. Its
 * message itself is never shown: V8 quotes the text around the error, and that may be the key.
 */
function syntaxErrorPlace(text: string, err: unknown): string {
  const message = err instanceof Error ? err.message : '';
  const offset = /at position (\d+)/.exec(message)?.[1];
  if (offset !== undefined) {
    const lines = text.slice(0, Number(offset)).split('\n');
    return ` at line ${lines.length}, column ${lines[lines.length - 1]!.length + 1}`;
  }
  return /Unexpected end/.test(message) ? ' (it ends too early)' : '';
}

function readConfigFile(path: string): ConfigFile {
  let text: string | undefined;
  try {
    text = readSettingsFile(path);
    if (text === undefined) return {};
  } catch (err) {
    if (err instanceof SettingsFileError) throw new ConfigError(err.message, err.zh);
    const why = (err as Error).message;
    throw new ConfigError(`Could not read ${path}: ${why}`, `无法读取 ${path}：${why}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    const place = syntaxErrorPlace(text, err);
    const zhPlace = place
      .replace(/^ at line (\d+), column (\d+)$/, '（第 $1 行第 $2 列）')
      .replace(' (it ends too early)', '（它提前结束了）');
    throw new ConfigError(
      `${path} is not valid JSON${place}. Fix or remove it.`,
      `${path} 不是有效的 JSON${zhPlace}。请修正或删除它。`,
    );
  }
  const parsed = ConfigFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue?.path.join('.');
    throw new ConfigError(`${path}: "${key}" ${issue?.message}.`, `${path} 里的「${key}」有误：${issue?.message}。`);
  }
  return parsed.data;
}

/**
 * Refuses a workspace that holds the home or, through a symbolic link, one of its files: the
 * assistant's tools could then rewrite config.json, the .env beside it and the database.
 */
function refuseExposedHome(home: string, workspace: string): void {
  const folder = realPathOf(workspace);
  if (isWithin(realPathOf(home), folder)) {
    throw new ConfigError(
      `The workspace ${workspace} contains Zhixing's home ${home}, so the assistant's tools could rewrite config.json and the database. ` +
        `Set "workspace" in ${join(home, CONFIG_FILE)} to a folder that does not contain it (the default is ${join(home, 'workspace')}).`,
      `工作区 ${workspace} 包含了知行的主目录 ${home}，助手的工具就能改写 config.json 和数据库。` +
        `请把 ${join(home, CONFIG_FILE)} 里的 "workspace" 设为不包含它的文件夹（默认是 ${join(home, 'workspace')}）。`,
    );
  }
  for (const name of [CONFIG_FILE, ENV_FILE, DB_FILE]) {
    const path = join(home, name);
    if (isWithin(realPathOf(path), folder)) {
      throw new ConfigError(
        `${path} leads into the workspace ${workspace}, where the assistant's tools could rewrite it. Keep it as a plain file in ${home}.`,
        `${path} 指向了工作区 ${workspace}，助手的工具在那里能改写它。请把它作为普通文件放在 ${home} 里。`,
      );
    }
  }
}

/**
 * The ZHIXING_* names of ./.env, unless the assistant could have written it: a file in the
 * workspace (run from there, or linked from elsewhere) is ignored whole, with a warning, so it
 * cannot say where the key goes.
 */
function readCwdEnv(cwd: string, home: string, workspace: string, warnings: string[]): Layer {
  const path = join(cwd, ENV_FILE);
  if (!existsSync(path)) return {};
  const folder = realPathOf(workspace);
  const real = realPathOf(path);
  if (isWithin(realPathOf(cwd), folder) || isWithin(real, folder)) {
    warnings.push('Ignored ./.env: it lies inside the workspace, where the assistant can write files.');
    return {};
  }
  // Run from the home, ./.env is the home's own file: it is read once, as that layer.
  if (real === realPathOf(join(home, ENV_FILE))) return {};
  let layer: Layer;
  try {
    layer = readEnv(path) ?? {};
  } catch (err) {
    // A link to a device, a FIFO or a huge file can come with a clone: it is no settings file, so the run goes on without it.
    if (err instanceof SettingsFileError) {
      warnings.push(`Ignored ./.env: it ${err.problem.en}.`);
      return {};
    }
    if (err instanceof EnvFileError) throw new ConfigError(err.message, err.zh);
    throw err;
  }
  // A project's .env is for the project: its OPENAI_* settings, say, are not Zhixing's to use.
  return Object.fromEntries(Object.entries(layer).filter(([name]) => name.startsWith(ZHIXING_PREFIX)));
}

/** A leading `~` as the shell reads it: the user's home folder. No shell reads config.json, so `~/ws` would be a folder named ~. */
function expandHome(path: string): string {
  const ownHome = path === '~' || path.startsWith('~/') || (sep === '\\' && path.startsWith('~\\'));
  return ownHome ? join(homedir(), path.slice(1)) : path;
}

/** A warning when a home file that holds a key is one others on the machine can read. Windows has no such mode bits. */
function sharedKeyWarning(path: string, holdsKey: boolean): string | undefined {
  if (!holdsKey || process.platform === 'win32') return undefined;
  if ((statSync(path).mode & SHARED_MODE_BITS) === 0) return undefined;
  return `${path} holds an API key and other users can read it. Make it yours alone: chmod 600 ${path}`;
}

/** The usable entries of `permissions`; each one that is not is named in a warning and skipped. */
function toolRules(file: ConfigFile, path: string, warnings: string[]): PermissionRules {
  if (file.permissions === undefined) return {};
  const { rules, problems } = checkRules(file.permissions);
  for (const p of problems) {
    warnings.push(
      p.key === undefined
        ? `Ignored "permissions" in ${path}: it ${p.en}.`
        : `Ignored "permissions.${p.key}" in ${path}: ${p.en.startsWith('the ') ? p.en : `it ${p.en}`}. Until it is fixed that tool follows the default rules.`,
    );
  }
  return rules;
}

/** ZHIXING_LANG from the environment, when it names a language: it wins over what the user writes in. */
export function forcedLang(env: NodeJS.ProcessEnv = process.env): 'zh' | 'en' | undefined {
  return parseLang(env.ZHIXING_LANG);
}

/** The language for the program's own words, from ZHIXING_LANG or the locale; usable before the config loads. */
export function detectUiLang(env: NodeJS.ProcessEnv = process.env): 'zh' | 'en' {
  return parseLang(env.ZHIXING_LANG) ?? (/^zh/i.test(env.LC_ALL || env.LC_MESSAGES || env.LANG || '') ? 'zh' : 'en');
}

/** The only place that reads the environment. Precedence: process env > ./.env > $ZHIXING_HOME/.env > config.json. */
export function loadConfig(options: LoadConfigOptions = {}): Config {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  // An empty variable counts as unset.
  const nonEmpty = (v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : v.trim());

  const homeFromEnv = nonEmpty(env.ZHIXING_HOME);
  const home = resolve(homeFromEnv ?? join(homedir(), '.zhixing'));
  const configPath = join(home, CONFIG_FILE);
  const homeEnvPath = join(home, ENV_FILE);
  const file = readConfigFile(configPath);
  const workspace = resolve(home, expandHome(nonEmpty(file.workspace) ?? 'workspace'));
  refuseExposedHome(home, workspace);
  const warnings: string[] = unknownKeyWarnings(Object.keys(file), FILE_KEYS, configPath);
  const homeEnv = readEnvFile(homeEnvPath);
  const envHoldsKey = Object.entries(homeEnv).some(([name, v]) => KEY_NAME.test(name) && nonEmpty(v) !== undefined);
  for (const [name, holdsKey] of [
    [CONFIG_FILE, Boolean(file.apiKey || file.web?.search?.apiKey)],
    [ENV_FILE, envHoldsKey],
  ] as const) {
    const shared = sharedKeyWarning(join(home, name), holdsKey);
    if (shared) warnings.push(shared);
  }
  // config.json speaks through the same names as the environment, as the lowest layer.
  const fileLayer: Layer = Object.fromEntries(
    Object.entries(FILE_NAMES).map(([name, key]) => [name, file[key]?.toString()]),
  );
  fileLayer.ZHIXING_EMBEDDING_BASE_URL = file.embedding?.baseUrl;
  fileLayer.ZHIXING_EMBEDDING_MODEL = file.embedding?.model;
  const cwdEnv = readCwdEnv(cwd, home, workspace, warnings);
  // Where memories and messages are sent to be embedded, which services answer the weather tool, and the
  // token that opens the HTTP API are not for a cloned folder's ./.env to choose: like the web settings,
  // only the user's own places.
  for (const name of HOME_ONLY_NAMES) {
    if (nonEmpty(cwdEnv[name]) === undefined) continue;
    warnings.push(`Ignored ${name} in ./.env: it is read from the environment, ${homeEnvPath} or config.json only.`);
    delete cwdEnv[name];
  }
  const layers: Layer[] = [env, cwdEnv, homeEnv, fileLayer];
  const origin = (s: Source): SettingOrigin => {
    if (s.layer === CWD_ENV_LAYER) return { from: 'cwd-env', name: s.name, path: join(cwd, ENV_FILE) };
    if (s.layer === HOME_ENV_LAYER) return { from: 'home-env', name: s.name, path: homeEnvPath };
    if (s.layer === FILE_LAYER)
      return { from: 'config-file', key: FILE_NAMES[s.name as keyof typeof FILE_NAMES] ?? s.name, path: configPath };
    return { from: 'environment', name: s.name };
  };
  const origins: Record<string, SettingOrigin> = {};
  const get = (name: string): string | undefined => {
    for (let layer = 0; layer < layers.length; layer++) {
      const v = nonEmpty(layers[layer]![name]);
      if (v === undefined) continue;
      origins[name] = origin({ layer, name });
      return v;
    }
    origins[name] = { from: 'default' };
    return undefined;
  };
  const wholeNumber = (name: string, fallback: number, min: number, max: number): number => {
    const raw = get(name);
    const n = raw === undefined ? fallback : Number(raw);
    if (Number.isInteger(n) && n >= min && n <= max) return n;
    const got = hasControlChars(raw ?? '') ? 'a value that contains control characters' : `"${raw}"`;
    const from = origins[name]!;
    const where =
      from.from === 'config-file'
        ? ` It is set as "${from.key}" in ${from.path}.`
        : from.from === 'cwd-env'
          ? ' It is set in ./.env.'
          : from.from === 'home-env'
            ? ` It is set in ${from.path}.`
            : '';
    const zhGot = hasControlChars(raw ?? '') ? '一个含控制字符的值' : `「${raw}」`;
    const zhWhere =
      from.from === 'config-file'
        ? `它在 ${from.path} 里设为 "${from.key}"。`
        : from.from === 'cwd-env'
          ? '它在 ./.env 里设置。'
          : from.from === 'home-env'
            ? `它在 ${from.path} 里设置。`
            : '';
    throw new ConfigError(
      `${name} must be a whole number from ${min} to ${max} (got ${got}).${where}`,
      `${name} 必须是 ${min} 到 ${max} 之间的整数（收到的是${zhGot}）。${zhWhere}`,
    );
  };

  let endpoint;
  try {
    endpoint = resolveEndpoint(layers, { homeLayers: [HOME_ENV_LAYER, FILE_LAYER] });
  } catch (err) {
    if (err instanceof UnknownProviderError) throw new ConfigError(err.message, err.zh);
    throw err;
  }
  const offlineSetting = get('ZHIXING_OFFLINE');
  const forcedOffline = options.offline === true || offlineSetting === '1';
  const mode = forcedOffline || (!endpoint.baseUrl && !endpoint.apiKey) ? 'offline' : 'llm';
  if (options.offline === true) origins.ZHIXING_OFFLINE = { from: 'option', option: '--offline' };
  else if (offlineSetting !== '1') origins.ZHIXING_OFFLINE = { from: 'default' };
  if (mode === 'llm' && endpoint.baseUrl && endpoint.source?.name !== 'ZHIXING_PROVIDER') {
    const from = origin(endpoint.source!);
    const example = (url: string) =>
      from.from === 'config-file' ? `"baseUrl": "${url}"` : `${endpoint.source!.name}=${url}`;
    const problem = baseUrlProblem(endpoint.baseUrl, originLabel(from, 'ZHIXING_BASE_URL'), example);
    if (problem) throw new ConfigError(problem.en, problem.zh);
  }
  if (options.model !== undefined && mode === 'offline') {
    throw forcedOffline
      ? new ConfigError(
          '--model chooses a model of the model service, but this run is offline (--offline or ZHIXING_OFFLINE=1). Drop one of them.',
          '--model 选择的是模型服务里的模型，但这次运行是离线的（--offline 或 ZHIXING_OFFLINE=1）。请去掉其中一个。',
        )
      : new ConfigError(
          '--model chooses a model of the model service, and none is configured: Zhixing is running offline. Set ZHIXING_BASE_URL / ZHIXING_API_KEY or ZHIXING_PROVIDER first.',
          '--model 选择的是模型服务里的模型，但还没有配置模型服务：知行正在离线运行。请先设置 ZHIXING_BASE_URL / ZHIXING_API_KEY 或 ZHIXING_PROVIDER。',
        );
  }
  // ./.env may choose the model service (that is what it is for), but a cloned project can carry one: never silently.
  if (mode === 'llm' && endpoint.baseUrl && endpoint.source?.layer === CWD_ENV_LAYER) {
    warnings.push(`Using the model service at ${safeUrl(endpoint.baseUrl)} from ./.env in this folder.`);
  }
  if (mode === 'llm' && endpoint.withheld) {
    const labels = ['the environment', './.env', homeEnvPath, configPath];
    const where = (s: Source) =>
      `${labels[s.layer]} (${s.layer === FILE_LAYER ? FILE_NAMES[s.name as keyof typeof FILE_NAMES] : s.name})`;
    const { key, endpoint: from } = endpoint.withheld;
    warnings.push(
      `Withheld the API key from ${where(key)}: the endpoint comes from ${where(from)}, and a key is only sent to an endpoint set in the same place. ` +
        'Set the key where the endpoint is set, or the endpoint where the key is.',
    );
  }
  const embedding = resolveEmbedding(
    layers,
    {
      baseUrl: endpoint.baseUrl ?? (endpoint.apiKey ? PROVIDER_PRESETS.openai.baseUrl : undefined),
      apiKey: endpoint.apiKey,
    },
    { homeLayers: [HOME_ENV_LAYER, FILE_LAYER] },
  );
  if (embedding.warning) warnings.push(embedding.warning);
  const langSetting = get('ZHIXING_LANG');
  const lang = parseLang(langSetting);
  if (langSetting !== undefined && !lang) {
    const label = originLabel(origins.ZHIXING_LANG!, 'ZHIXING_LANG');
    throw new ConfigError(
      langProblem(langSetting, label),
      `${label} 必须是 zh（中文）或 en（English），现在是 ${echo(langSetting, 'value')}。不设置它，就跟随你写的语言。`,
    );
  }
  const maxSteps = wholeNumber('ZHIXING_MAX_STEPS', DEFAULT_MAX_STEPS, 1, 100);
  const requestTimeoutMs = wholeNumber('ZHIXING_REQUEST_TIMEOUT_MS', DEFAULT_REQUEST_TIMEOUT_MS, 1_000, MAX_TIMEOUT_MS);
  const headersTimeoutMs = wholeNumber('ZHIXING_HEADERS_TIMEOUT_MS', DEFAULT_HEADERS_TIMEOUT_MS, 1_000, MAX_TIMEOUT_MS);
  const maxRetries = wholeNumber('ZHIXING_MAX_RETRIES', DEFAULT_MAX_RETRIES, 0, MAX_RETRIES);
  const turnTimeoutMs = wholeNumber('ZHIXING_TURN_TIMEOUT_MS', DEFAULT_TURN_TIMEOUT_MS, 1_000, MAX_TURN_TIMEOUT_MS);
  const toolTimeoutMs = wholeNumber('ZHIXING_TOOL_TIMEOUT_MS', DEFAULT_TOOL_TIMEOUT_MS, 100, MAX_TIMEOUT_MS);
  const maxReplyChars = wholeNumber('ZHIXING_MAX_REPLY_CHARS', DEFAULT_MAX_REPLY_CHARS, 1_000, 10_000_000);
  const contextWindow = wholeNumber(
    'ZHIXING_CONTEXT_WINDOW',
    defaultContextWindow(mode === 'offline' ? 'offline' : endpoint.provider),
    MIN_CONTEXT_WINDOW,
    MAX_CONTEXT_WINDOW,
  );
  const compactionSetting = get('ZHIXING_COMPACTION');
  const compaction = onOff('ZHIXING_COMPACTION', compactionSetting, origins.ZHIXING_COMPACTION!);
  const geocodingUrl = get('ZHIXING_GEOCODING_URL') ?? DEFAULT_GEOCODING_URL;
  const weatherUrl = get('ZHIXING_WEATHER_URL') ?? DEFAULT_WEATHER_URL;
  const token = get('ZHIXING_TOKEN');
  const web = readWebSettings(
    (name) => {
      const cwdValue = nonEmpty(layers[CWD_ENV_LAYER]![name]);
      if (cwdValue !== undefined)
        warnings.push(
          `Ignored ${name} in ./.env: web settings are read from the environment, ${homeEnvPath} or config.json only.`,
        );
      for (const layer of [0, HOME_ENV_LAYER]) {
        const value = nonEmpty(layers[layer]![name]);
        if (value !== undefined) return { value, origin: origin({ layer, name }) };
      }
      return undefined;
    },
    file.web,
    configPath,
    origins,
  );
  let shell: ShellSettings;
  try {
    const read = readShellSettings({
      value: get('ZHIXING_SHELL_NETWORK'),
      origin: origins.ZHIXING_SHELL_NETWORK!,
      file: file.shell,
      configPath,
      env,
      warnings,
    });
    shell = read.settings;
    origins.ZHIXING_SHELL_NETWORK = read.origin;
  } catch (err) {
    if (err instanceof ShellSettingError) throw new ConfigError(err.message, err.zh);
    throw err;
  }

  // Where the settings not read one by one came from: the home, the workspace, and the model service's.
  origins.ZHIXING_HOME = homeFromEnv ? { from: 'environment', name: 'ZHIXING_HOME' } : { from: 'default' };
  origins.workspace = nonEmpty(file.workspace)
    ? { from: 'config-file', key: 'workspace', path: configPath }
    : { from: 'default' };
  const presetName = endpoint.provider in PROVIDER_PRESETS ? endpoint.provider : 'openai';
  const fromPreset: SettingOrigin =
    endpoint.source?.name === 'ZHIXING_PROVIDER' ? { from: 'preset', provider: presetName } : { from: 'default' };
  origins.ZHIXING_PROVIDER =
    endpoint.source?.name === 'ZHIXING_PROVIDER' ? origin(endpoint.source) : { from: 'default' };
  origins.ZHIXING_BASE_URL =
    endpoint.source && endpoint.source.name !== 'ZHIXING_PROVIDER' ? origin(endpoint.source) : fromPreset;
  origins.ZHIXING_API_KEY = endpoint.keySource ? origin(endpoint.keySource) : { from: 'default' };
  origins.ZHIXING_MODEL =
    options.model !== undefined
      ? { from: 'option', option: '--model' }
      : endpoint.modelSource
        ? origin(endpoint.modelSource)
        : fromPreset;

  return {
    home,
    workspace,
    dbPath: join(home, DB_FILE),
    userSkillsDir: join(home, SKILLS_FOLDER),
    projectSkillsDir: resolve(cwd, PROJECT_FOLDER, SKILLS_FOLDER),
    mode,
    provider: mode === 'offline' ? 'offline' : endpoint.provider,
    baseUrl: endpoint.baseUrl ?? (mode === 'llm' ? PROVIDER_PRESETS.openai.baseUrl : undefined),
    apiKey: endpoint.apiKey,
    model: mode === 'offline' ? 'rules' : (options.model ?? endpoint.model),
    maxSteps,
    requestTimeoutMs,
    headersTimeoutMs,
    maxRetries,
    turnTimeoutMs,
    toolTimeoutMs,
    maxReplyChars,
    lang,
    contextWindow,
    compaction,
    uiLang: lang ?? detectUiLang(env),
    geocodingUrl,
    weatherUrl,
    noColor: env.NO_COLOR !== undefined && env.NO_COLOR !== '',
    dumbTerminal: env.TERM === 'dumb',
    permissions: toolRules(file, configPath, warnings),
    shell,
    undo: file.undo ?? {},
    mcpServers: readMcpServers(file.mcpServers, configPath, warnings),
    embedding: embedding.endpoint,
    web,
    token,
    warnings,
    origins,
  };
}

/** `sk-…abcd`: enough to recognise a key, never enough to use it. */
export function maskKey(key: string | undefined): string | undefined {
  if (!key) return undefined;
  return key.length <= 8 ? '…' : `${key.slice(0, 3)}…${key.slice(-4)}`;
}

/** A URL as it may be shown: scheme, host and path, without credentials or query (where keys hide). */
export function safeUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.protocol}//${url.host}${url.pathname}`.replace(/\/$/, '');
  } catch {
    return '(invalid URL)';
  }
}
