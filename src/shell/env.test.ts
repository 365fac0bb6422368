import { describe, expect, it } from 'vitest';
import { isSecretVariable, shellEnv } from './env.js';

const SECRETS: Record<string, string> = {
  OPENAI_API_KEY: 'sk-proj-abcdefghijklmnopqrstuvwx',
  ZHIXING_API_KEY: 'sk-zhixing-0123456789abcdef',
  ZHIXING_TOKEN: 'server-bearer-token-value',
  ANTHROPIC_API_KEY: 'sk-ant-0123456789abcdefghij',
  GITHUB_TOKEN: 'ghp_0123456789abcdefghijklmnopqrstuv',
  NPM_TOKEN: 'npm_0123456789abcdefghij',
  AWS_ACCESS_KEY_ID: 'aws-access-key-id-value',
  AWS_SECRET_ACCESS_KEY: 'aws-secret-value-0123456789',
  AWS_REGION: 'eu-west-1',
  DB_PASSWORD: 'hunter2-password-value',
  MYSQL_PWD: 'mysql-pwd-value',
  SMTP_PASS: 'smtp-pass-value',
  SLACK_WEBHOOK_SECRET: 'slack-secret-value',
  GOOGLE_APPLICATION_CREDENTIALS: '/home/u/gcp.json',
  SSH_AUTH_SOCK: '/tmp/ssh-agent.sock',
  DATABASE_URL: 'postgres://app:db-url-password@db.local/app',
  SENTRY_DSN: 'https://user:dsn-password@sentry.io/1',
  ODBC_CONN: 'Driver=x;Server=y;PWD=odbc-password-value',
  SOME_SETTING: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
  my_lowercase_token: 'lowercase-token-value',
  BW_SESSION: 'bitwarden-session-value',
  OP_SESSION_myteam: 'onepassword-session-value',
  SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T0/B0/xyz',
  DISCORD_WEBHOOK: 'https://discord.com/api/webhooks/1/abc',
  SENTRY_DSN_KEYLESS: 'https://0123456789abcdef@o1.ingest.sentry.io/1',
  GH_PAT: 'personal-access-token-value',
  TS_AUTHKEY: 'tskey-auth-value',
  OTEL_EXPORTER_OTLP_HEADERS: 'x-honeycomb-team=abcdef',
  SSHPASS: 'ssh-password-value',
  HUAWEICLOUD_SDK_SK: 'huawei-secret-value',
  QIANFAN_SK: 'qianfan-secret-value',
  PAYMENT_CONFIG: 'sk_live_0123456789abcdef',
  HONEYCOMB_WRITEKEY: 'honeycomb-write-key',
  API_BEARER: 'bearer-value',
  GRAFANA_SA: 'glsa_0123456789abcdefghijkl',
  SSHKEY: 'ssh-key-value',
  MY_PIN: '1234',
  KUBECONFIG_DATA: 'kubeconfig-value',
  MY_CONN_STR: 'Server=x;User=y',
  MY_SESSION: 'session-value',
  MY_SIG: 'signature-value',
};

const HARMLESS: Record<string, string> = {
  PATH: '/usr/bin:/bin',
  LANG: 'zh_CN.UTF-8',
  LC_ALL: 'zh_CN.UTF-8',
  EDITOR: 'vim',
  KEYBOARD_LAYOUT: 'us',
  REDIS_URL: 'redis://cache.local:6379/0',
  ZHIXING_LANG: 'zh',
  OLDPWD: '/home/u',
};

describe('the environment a shell command gets', () => {
  it('drops every variable that may hold a key, a token or a password, by name or by value', () => {
    for (const [name, value] of Object.entries(SECRETS))
      expect([name, isSecretVariable(name, value)]).toEqual([name, true]);
    for (const [name, value] of Object.entries(HARMLESS))
      expect([name, isSecretVariable(name, value)]).toEqual([name, false]);
  });

  it('keeps the rest, and sets HOME to the workspace, a temporary folder and no pager, colour or prompts', () => {
    const env = shellEnv(
      { ...SECRETS, ...HARMLESS, HOME: '/home/u', TERM: 'xterm-256color', PAGER: 'less' },
      { workspace: '/ws', tmpdir: '/tmp' },
    );
    const text = JSON.stringify(env);
    for (const [name, value] of Object.entries(SECRETS)) {
      expect(env[name]).toBeUndefined();
      expect(text).not.toContain(value);
    }
    expect(env).toMatchObject({
      ...HARMLESS,
      HOME: '/ws',
      PWD: '/ws',
      TMPDIR: '/tmp',
      PAGER: 'cat',
      GIT_PAGER: 'cat',
      GIT_TERMINAL_PROMPT: '0',
      TERM: 'dumb',
      NO_COLOR: '1',
    });
  });

  it('drops what makes a shell run startup files, and where the user logged in from', () => {
    const env = shellEnv(
      {
        SSH_CLIENT: '10.0.0.1 5000 22',
        SSH2_CLIENT: 'x',
        SSH_CONNECTION: 'a b c d',
        BASH_ENV: '/x',
        ENV: '/y',
        LANG: 'C',
      },
      { workspace: '/ws', tmpdir: '/tmp' },
    );
    for (const name of ['SSH_CLIENT', 'SSH2_CLIENT', 'SSH_CONNECTION', 'BASH_ENV', 'ENV'])
      expect(env[name]).toBeUndefined();
    expect(env.LANG).toBe('C');
  });

  it('gives a PATH to a parent that had none', () => {
    expect(shellEnv({}, { workspace: '/ws', tmpdir: '/tmp' }).PATH).toMatch(/\/usr\/bin/);
  });
});
