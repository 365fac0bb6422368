/**
 * The environment a shell command gets: the user's own, minus everything that could be a key, a
 * token or a password. A model-driven command has no business with the user's credentials, and a
 * variable is the easiest thing to print or send away.
 */

/** Words that, as a part of a variable's name (split at `_`), mark it as holding a secret. */
const SECRET_WORDS = new Set([
  'KEY',
  'KEYS',
  'APIKEY',
  'TOKEN',
  'TOKENS',
  'SECRET',
  'SECRETS',
  'PASSWORD',
  'PASSWORDS',
  'PASSWD',
  'PASS',
  'PASSPHRASE',
  'CREDENTIAL',
  'CREDENTIALS',
  'CREDS',
  'AUTH',
  'AUTHTOKEN',
  'COOKIE',
  'COOKIES',
  'PRIVATE',
  'SIGNATURE',
  'SALT',
  // A webhook's URL is its key; a DSN (Sentry's and the like) carries one; a PAT is a personal access token.
  'WEBHOOK',
  'WEBHOOKS',
  'DSN',
  'PAT',
  // A secret key by its short name (HUAWEICLOUD_SDK_SK), auth and write keys, bearer values, headers
  // that carry them (OTEL_EXPORTER_OTLP_HEADERS), sshpass's password.
  'SK',
  'AUTHKEY',
  'WRITEKEY',
  'BEARER',
  'HEADERS',
  'SSHPASS',
  // PINs, signatures, SSH keys, sessions, connection strings, kubeconfigs carried in a variable.
  'PIN',
  'SIG',
  'SSHKEY',
  'SESSION',
  'CONN',
  'CONNECTION',
  'KUBECONFIG',
  'SA',
]);
/** Fragments that mark a secret wherever they sit in the name (`ACCESSTOKEN`, `DB_PASSWORD_FILE`). */
const SECRET_FRAGMENTS = /SECRET|PASSWORD|PASSWD|CREDENTIAL|TOKEN|APIKEY|API_KEY|PRIVATE_KEY|AUTH_KEY|ACCESS_KEY/i;
/**
 * Whole families dropped by prefix: cloud and model-provider settings travel with their keys, and
 * Zhixing's own settings say where its key goes.
 */
const SECRET_PREFIXES =
  /^(AWS_|AZURE_|GOOGLE_APPLICATION_CREDENTIALS|GCLOUD_|CLOUDSDK_AUTH|OPENAI_|ANTHROPIC_|ZHIXING_|VAULT_|NPM_TOKEN|GITHUB_TOKEN|GH_TOKEN|GH_PAT|GITLAB_TOKEN|HF_TOKEN|HUGGING_FACE_HUB_TOKEN|BW_SESSION|OP_SESSION_|OP_SERVICE_ACCOUNT|SENTRY_DSN)/i;
/** Agent sockets let a command use the user's SSH and GPG keys without reading them. */
const AGENT_NAMES = new Set(['SSH_AUTH_SOCK', 'SSH_AGENT_PID', 'GPG_AGENT_INFO', 'GNUPGHOME', 'KRB5CCNAME']);
/**
 * What makes a shell run startup files (`bash -c` runs ~/.bashrc when started over SSH; BASH_ENV and
 * ENV name a file to run), and where the user logged in from: nothing a command needs.
 */
const STARTUP_TRIGGERS = new Set(['SSH_CLIENT', 'SSH2_CLIENT', 'SSH_CONNECTION', 'SSH_TTY', 'BASH_ENV', 'ENV']);
/** Of Zhixing's own settings, the ones that say nothing secret and that a script may want. */
const HARMLESS_ZHIXING = new Set(['ZHIXING_LANG']);
/** A URL that carries a password (`postgres://user:pw@host/db`, a proxy with credentials). */
const URL_WITH_PASSWORD = /[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]+@/i;
/** A query or DSN field that carries a password (`password=…`, `pwd=…`). */
const PASSWORD_FIELD = /(?:^|[?&;\s])(?:password|passwd|pwd)=/i;
/**
 * Values shaped like well-known keys, whatever the variable is called: OpenAI and Anthropic (`sk-`),
 * GitHub (`ghp_`, `github_pat_`…), GitLab, Slack, AWS access keys, Hugging Face, Google API keys, JWTs.
 */
const KEY_SHAPED_VALUE =
  /\b(?:sk-[A-Za-z0-9_-]{16,}|[rsp]k_(?:live|test)_[A-Za-z0-9]{10,}|glsa_[A-Za-z0-9_]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{16,}|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|hf_[A-Za-z0-9]{20,}|AIza[0-9A-Za-z_-]{30,}|eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.)/;

/** Who commits made by a command are from, unless the environment says. */
const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: 'Zhixing',
  GIT_AUTHOR_EMAIL: 'zhixing@localhost',
  GIT_COMMITTER_NAME: 'Zhixing',
  GIT_COMMITTER_EMAIL: 'zhixing@localhost',
};

/** A PATH for a parent that has none: where programs live on Linux and macOS. */
export const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** True when the variable `name=value` may hold a secret and must not reach a command. */
export function isSecretVariable(name: string, value: string): boolean {
  const upper = name.toUpperCase();
  if (HARMLESS_ZHIXING.has(upper)) return false;
  if (AGENT_NAMES.has(upper) || SECRET_PREFIXES.test(upper) || SECRET_FRAGMENTS.test(upper)) return true;
  const words = upper.split('_');
  if (words.some((word) => SECRET_WORDS.has(word))) return true;
  // MYSQL_PWD is a password; PWD alone is the working folder.
  if (words.length > 1 && words.includes('PWD')) return true;
  // Connection strings are named anything (DATABASE_URL, REDIS_URL, SENTRY_DSN…): judged by what they hold.
  if (URL_WITH_PASSWORD.test(value) || PASSWORD_FIELD.test(value)) return true;
  return KEY_SHAPED_VALUE.test(value);
}

export interface ShellEnvOptions {
  /** The folder the command works in. */
  workspace: string;
  /**
   * The command's HOME: under bubblewrap an empty folder of its own at the user's home's path; the
   * workspace elsewhere, so programs write their dotfiles there, not in the user's home.
   */
  home?: string;
  /** The temporary folder inside the sandbox (`/tmp`, private to the command under bubblewrap). */
  tmpdir: string;
}

/**
 * The environment for one command: `parent` without its secrets, and settings that suit a command
 * nobody watches: no pager, no colours, no terminal to prompt on.
 */
export function shellEnv(
  parent: Record<string, string | undefined>,
  { workspace, tmpdir, home }: ShellEnvOptions,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined || STARTUP_TRIGGERS.has(name) || isSecretVariable(name, value)) continue;
    env[name] = value;
  }
  return {
    // git commits in the workspace need a name; never the user's own, which lives in the ~/.gitconfig the sandbox does not show.
    ...GIT_IDENTITY,
    ...env,
    PATH: env.PATH || DEFAULT_PATH,
    HOME: home ?? workspace,
    PWD: workspace,
    TMPDIR: tmpdir,
    PAGER: 'cat',
    GIT_PAGER: 'cat',
    // git would otherwise wait for a password nobody can type.
    GIT_TERMINAL_PROMPT: '0',
    TERM: 'dumb',
    NO_COLOR: '1',
  };
}
