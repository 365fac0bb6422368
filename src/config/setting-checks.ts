/**
 * Settings that are wrong say so, naming the setting where it was set and what to write instead:
 * an unknown name in config.json (with the name it most likely meant), a base URL without a
 * scheme, a language that is neither zh nor en.
 */
import { hasControlChars } from './control-chars.js';
import { closestName } from './suggest.js';

/** How much of a name or value from a file a message repeats. */
const MAX_ECHO_CHARS = 40;
/** Hosts a local model server runs on: a base URL for one without a scheme means http://, others https://. */
const LOCAL_HOST = /^(localhost|127\.|0\.0\.0\.0|\[::1\]|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)/i;
const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/** Where one setting's value came from, for `zhixing config` and for messages that name it. */
export type SettingOrigin =
  | { from: 'environment'; name: string }
  | { from: 'cwd-env'; name: string; path: string }
  | { from: 'home-env'; name: string; path: string }
  | { from: 'config-file'; key: string; path: string }
  | { from: 'preset'; provider: string }
  | { from: 'option'; option: string }
  | { from: 'default' };

/** How a message names a setting: by its variable, or by its key in config.json, and where it was set. */
export function originLabel(origin: SettingOrigin, envName: string): string {
  switch (origin.from) {
    case 'environment':
      return origin.name;
    case 'cwd-env':
      return `${origin.name} in ./.env`;
    case 'home-env':
      return `${origin.name} in ${origin.path}`;
    case 'config-file':
      return `"${origin.key}" in ${origin.path}`;
    case 'option':
      return origin.option;
    default:
      return envName;
  }
}

/** Text from a file, as a message may repeat it: never with control characters, never very long. */
export function echo(text: string, what: string): string {
  if (hasControlChars(text)) return `a ${what} with control characters in it`;
  return `"${text.length > MAX_ECHO_CHARS ? `${text.slice(0, MAX_ECHO_CHARS)}…` : text}"`;
}

/** `zh` or `en` from a ZHIXING_LANG value: the code itself, or a locale such as `zh_CN.UTF-8` or `en-US`. */
export function parseLang(value: string | undefined): 'zh' | 'en' | undefined {
  const match = /^(zh|en)(?:[-_.@].*)?$/i.exec(value?.trim() ?? '');
  return match ? (match[1]!.toLowerCase() as 'zh' | 'en') : undefined;
}

/** What is wrong with a ZHIXING_LANG that is set but neither zh nor en. */
export function langProblem(value: string, label: string): string {
  return `${label} must be zh (中文) or en (English), got ${echo(value, 'value')}. Leave it unset to follow the language you write in.`;
}

/** One warning per top-level name in config.json that is not among `known`, with the name it most likely meant. */
export function unknownKeyWarnings(keys: string[], known: readonly string[], path: string): string[] {
  return keys
    .filter((key) => !known.includes(key))
    .map((key) => {
      const meant = hasControlChars(key) ? undefined : closestName(key, known);
      const hint = meant ? `Did you mean "${meant}"?` : `The settings it reads are: ${known.join(', ')}.`;
      return `${path}: unknown setting ${echo(key, 'name')}, ignored. ${hint}`;
    });
}

/**
 * What is wrong with a base URL no request could go to, and how to write it: `api.deepseek.com` has
 * no scheme (every request would fail with a puzzling error), `ftp://…` is not HTTP. `example` writes
 * a corrected URL the way the setting is written (`ZHIXING_BASE_URL=…`, `"baseUrl": "…"`).
 */
export function baseUrlProblem(
  url: string,
  label: string,
  example: (url: string) => string,
): { en: string; zh: string } | undefined {
  if (hasControlChars(url))
    return {
      en: `${label} contains control characters. Set it to an http:// or https:// URL, e.g. https://api.openai.com/v1.`,
      zh: `${label} 里有控制字符。请设为 http:// 或 https:// 开头的地址，例如 https://api.openai.com/v1。`,
    };
  if (!SCHEME.test(url)) {
    // A user name and password before the host are not repeated.
    if (/^[^/]*@/.test(url))
      return {
        en: `${label} must start with https:// or http://. Add the scheme in front of the address.`,
        zh: `${label} 必须以 https:// 或 http:// 开头。请在地址前加上它。`,
      };
    const scheme = LOCAL_HOST.test(url) ? 'http://' : 'https://';
    const fixed = example(scheme + url.replace(/^\/+/, ''));
    return {
      en: `${label} must start with https:// or http:// (got ${echo(url, 'value')}). Add the scheme: ${fixed}`,
      zh: `${label} 必须以 https:// 或 http:// 开头（现在是 ${echo(url, 'value')}）。请加上它：${fixed}`,
    };
  }
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed && (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname) return undefined;
  // The URL itself is not repeated: it may carry a user name and password.
  const scheme = SCHEME.exec(url)![0].toLowerCase();
  const valid = scheme === 'http://' || scheme === 'https://';
  const why = valid ? 'is not a valid URL' : `starts with ${scheme}, not https:// or http://`;
  const zhWhy = valid ? '不是有效的网址' : `以 ${scheme} 开头，而不是 https:// 或 http://`;
  return {
    en: `${label} ${why}. Set it to the service's OpenAI-compatible address, e.g. https://api.openai.com/v1.`,
    zh: `${label} ${zhWhy}。请设为该服务兼容 OpenAI 的地址，例如 https://api.openai.com/v1。`,
  };
}
