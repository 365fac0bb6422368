import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { z } from 'zod';
import { PROVIDER_PRESETS, type ProviderName } from '../llm/presets.js';

const DEFAULT_MAX_STEPS = 8;
const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;
const DEFAULT_TOOL_TIMEOUT_MS = 60_000;
const DEFAULT_GEOCODING_URL = 'https://geocoding-api.open-meteo.com/v1/search';
const DEFAULT_WEATHER_URL = 'https://api.open-meteo.com/v1/forecast';

/** The subset of `config.json` this version reads. Unknown keys are kept for other versions and hosts. */
export const ConfigFile = z
  .object({
    provider: z.string().optional(),
    baseUrl: z.string().optional(),
    apiKey: z.string().optional(),
    model: z.string().optional(),
    maxSteps: z.number().int().min(1).max(100).optional(),
    requestTimeoutMs: z.number().int().positive().optional(),
    toolTimeoutMs: z.number().int().positive().optional(),
    workspace: z.string().optional(),
    lang: z.enum(['zh', 'en']).optional(),
  })
  .passthrough();
export type ConfigFile = z.infer<typeof ConfigFile>;

export interface Config {
  home: string;
  workspace: string;
  dbPath: string;
  /** `offline` when no model is configured or ZHIXING_OFFLINE=1. */
  mode: 'offline' | 'llm';
  provider: string;
  baseUrl?: string;
  apiKey?: string;
  model: string;
  maxSteps: number;
  requestTimeoutMs: number;
  toolTimeoutMs: number;
  /** Forced user-facing language; otherwise each turn follows the user's own words. */
  lang?: 'zh' | 'en';
  /** The language of the program's own messages (help, errors): ZHIXING_LANG, else the locale. */
  uiLang: 'zh' | 'en';
  geocodingUrl: string;
  weatherUrl: string;
  noColor: boolean;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export interface LoadConfigOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Command-line override, e.g. `--offline`. */
  offline?: boolean;
}

function readEnvFile(path: string): Record<string, string> {
  try {
    return parseEnv(readFileSync(path, 'utf8')) as Record<string, string>;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError(`Could not read ${path}: ${(err as Error).message}`);
  }
}

function readConfigFile(path: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError(`Could not read ${path}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${path} is not valid JSON (${(err as Error).message}). Fix or remove it.`);
  }
  const parsed = ConfigFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`${path}: "${issue?.path.join('.')}" ${issue?.message}.`);
  }
  return parsed.data;
}

/** The language for the program's own words, from ZHIXING_LANG or the locale; usable before the config loads. */
export function detectUiLang(env: NodeJS.ProcessEnv = process.env): 'zh' | 'en' {
  const forced = env.ZHIXING_LANG?.trim().toLowerCase().slice(0, 2);
  if (forced === 'zh' || forced === 'en') return forced;
  return /^zh/i.test(env.LC_ALL || env.LC_MESSAGES || env.LANG || '') ? 'zh' : 'en';
}

/** The only place that reads the environment. Precedence: process env > ./.env > $ZHIXING_HOME/.env > config.json. */
export function loadConfig(options: LoadConfigOptions = {}): Config {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  // An empty variable counts as unset.
  const nonEmpty = (v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : v.trim());

  const home = resolve(nonEmpty(env.ZHIXING_HOME) ?? join(homedir(), '.zhixing'));
  const layers = [env, readEnvFile(join(cwd, '.env')), readEnvFile(join(home, '.env'))];
  const file = readConfigFile(join(home, 'config.json'));
  const get = (...names: string[]): string | undefined => {
    for (const layer of layers) for (const n of names) {
      const v = nonEmpty(layer[n]);
      if (v !== undefined) return v;
    }
    return undefined;
  };

  const providerName = (get('ZHIXING_PROVIDER') ?? file.provider)?.toLowerCase();
  if (providerName && !(providerName in PROVIDER_PRESETS)) {
    throw new ConfigError(
      `Unknown provider "${providerName}". Use one of: ${Object.keys(PROVIDER_PRESETS).join(', ')}.`,
    );
  }
  const preset = providerName ? PROVIDER_PRESETS[providerName as ProviderName] : undefined;
  const baseUrl = get('ZHIXING_BASE_URL', 'OPENAI_BASE_URL') ?? nonEmpty(file.baseUrl) ?? preset?.baseUrl;
  const apiKey = get('ZHIXING_API_KEY', 'OPENAI_API_KEY') ?? nonEmpty(file.apiKey);
  const model = get('ZHIXING_MODEL', 'OPENAI_MODEL') ?? nonEmpty(file.model) ?? preset?.model ?? PROVIDER_PRESETS.openai.model;
  const forcedOffline = options.offline === true || get('ZHIXING_OFFLINE') === '1';
  const mode = forcedOffline || (!baseUrl && !apiKey) ? 'offline' : 'llm';

  const lang = get('ZHIXING_LANG')?.toLowerCase().slice(0, 2) ?? file.lang;
  const maxSteps = Number(get('ZHIXING_MAX_STEPS') ?? file.maxSteps ?? DEFAULT_MAX_STEPS);
  if (!Number.isInteger(maxSteps) || maxSteps < 1 || maxSteps > 100) {
    throw new ConfigError('ZHIXING_MAX_STEPS must be a whole number from 1 to 100.');
  }

  return {
    home,
    workspace: resolve(home, nonEmpty(file.workspace) ?? 'workspace'),
    dbPath: join(home, 'zhixing.db'),
    mode,
    provider: mode === 'offline' ? 'offline' : providerName ?? (baseUrl ? 'custom' : 'openai'),
    baseUrl: baseUrl ?? (mode === 'llm' ? PROVIDER_PRESETS.openai.baseUrl : undefined),
    apiKey,
    model: mode === 'offline' ? 'rules' : model,
    maxSteps,
    requestTimeoutMs: Number(get('ZHIXING_REQUEST_TIMEOUT_MS') ?? file.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS),
    toolTimeoutMs: Number(get('ZHIXING_TOOL_TIMEOUT_MS') ?? file.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS),
    lang: lang === 'zh' || lang === 'en' ? lang : undefined,
    uiLang: lang === 'zh' || lang === 'en' ? lang : detectUiLang(env),
    geocodingUrl: get('ZHIXING_GEOCODING_URL') ?? DEFAULT_GEOCODING_URL,
    weatherUrl: get('ZHIXING_WEATHER_URL') ?? DEFAULT_WEATHER_URL,
    noColor: env.NO_COLOR !== undefined && env.NO_COLOR !== '',
  };
}

/** `sk-…abcd`: enough to recognise a key, never enough to use it. */
export function maskKey(key: string | undefined): string | undefined {
  if (!key) return undefined;
  return key.length <= 8 ? '…' : `${key.slice(0, 3)}…${key.slice(-4)}`;
}
