import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { z } from 'zod';
import { PROVIDER_PRESETS } from '../llm/presets.js';
import { resolveEndpoint, UnknownProviderError, type Layer } from './endpoint.js';

const DEFAULT_MAX_STEPS = 8;
const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;
const DEFAULT_HEADERS_TIMEOUT_MS = 60_000;
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
    headersTimeoutMs: z.number().int().positive().optional(),
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
  /** How long to wait for a model service to start answering before giving up on it. */
  headersTimeoutMs: number;
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
  const file = readConfigFile(join(home, 'config.json'));
  // config.json speaks through the same names as the environment, as the lowest layer.
  const fileLayer: Layer = {
    ZHIXING_PROVIDER: file.provider,
    ZHIXING_BASE_URL: file.baseUrl,
    ZHIXING_API_KEY: file.apiKey,
    ZHIXING_MODEL: file.model,
    ZHIXING_MAX_STEPS: file.maxSteps?.toString(),
    ZHIXING_REQUEST_TIMEOUT_MS: file.requestTimeoutMs?.toString(),
    ZHIXING_HEADERS_TIMEOUT_MS: file.headersTimeoutMs?.toString(),
    ZHIXING_TOOL_TIMEOUT_MS: file.toolTimeoutMs?.toString(),
    ZHIXING_LANG: file.lang,
  };
  const layers: Layer[] = [env, readEnvFile(join(cwd, '.env')), readEnvFile(join(home, '.env')), fileLayer];
  const get = (name: string): string | undefined => {
    for (const layer of layers) {
      const v = nonEmpty(layer[name]);
      if (v !== undefined) return v;
    }
    return undefined;
  };
  const wholeNumber = (name: string, fallback: number, min: number, max: number): number => {
    const raw = get(name);
    const n = raw === undefined ? fallback : Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got "${raw}").`);
    return n;
  };

  let endpoint;
  try {
    endpoint = resolveEndpoint(layers);
  } catch (err) {
    if (err instanceof UnknownProviderError) throw new ConfigError(err.message);
    throw err;
  }
  const forcedOffline = options.offline === true || get('ZHIXING_OFFLINE') === '1';
  const mode = forcedOffline || (!endpoint.baseUrl && !endpoint.apiKey) ? 'offline' : 'llm';
  const lang = get('ZHIXING_LANG')?.toLowerCase().slice(0, 2);
  const maxSteps = wholeNumber('ZHIXING_MAX_STEPS', DEFAULT_MAX_STEPS, 1, 100);
  const requestTimeoutMs = wholeNumber('ZHIXING_REQUEST_TIMEOUT_MS', DEFAULT_REQUEST_TIMEOUT_MS, 1_000, 3_600_000);
  const headersTimeoutMs = wholeNumber('ZHIXING_HEADERS_TIMEOUT_MS', DEFAULT_HEADERS_TIMEOUT_MS, 1_000, 3_600_000);
  const toolTimeoutMs = wholeNumber('ZHIXING_TOOL_TIMEOUT_MS', DEFAULT_TOOL_TIMEOUT_MS, 100, 3_600_000);

  return {
    home,
    workspace: resolve(home, nonEmpty(file.workspace) ?? 'workspace'),
    dbPath: join(home, 'zhixing.db'),
    mode,
    provider: mode === 'offline' ? 'offline' : endpoint.provider,
    baseUrl: endpoint.baseUrl ?? (mode === 'llm' ? PROVIDER_PRESETS.openai.baseUrl : undefined),
    apiKey: endpoint.apiKey,
    model: mode === 'offline' ? 'rules' : endpoint.model,
    maxSteps,
    requestTimeoutMs,
    headersTimeoutMs,
    toolTimeoutMs,
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

/** A URL as it may be shown: scheme, host and path, without credentials or query (where keys hide). */
export function safeUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.protocol}//${url.host}${url.pathname}`.replace(/\/$/, '');
  } catch {
    return '(invalid URL)';
  }
}
