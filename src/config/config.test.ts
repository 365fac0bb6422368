import { chmodSync, mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PROVIDER_PRESETS } from './presets.js';
import { loadConfig, maskKey } from './config.js';
import { ConfigError } from './config-error.js';
import { MAX_SETTINGS_BYTES } from './settings-file.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function folders() {
  const root = mkdtempSync(join(tmpdir(), 'zhixing-config-'));
  dirs.push(root);
  const home = join(root, 'home');
  const cwd = join(root, 'cwd');
  mkdirSync(home);
  mkdirSync(cwd);
  return { root, home, cwd };
}

/** config.json as a careful user keeps it: readable by them alone. */
function writeConfig(home: string, settings: object) {
  writeFileSync(join(home, 'config.json'), JSON.stringify(settings), { mode: 0o600 });
}

describe('loadConfig', () => {
  it('runs offline with neither a base URL nor a key', () => {
    const { home, cwd } = folders();
    const c = loadConfig({ env: { ZHIXING_HOME: home }, cwd });
    expect(c).toMatchObject({
      mode: 'offline',
      provider: 'offline',
      model: 'rules',
      home,
      workspace: join(home, 'workspace'),
    });
  });

  it('takes the process environment over ./.env over $ZHIXING_HOME/.env over config.json', () => {
    const { home, cwd } = folders();
    writeFileSync(
      join(home, 'config.json'),
      JSON.stringify({ baseUrl: 'http://file/v1', model: 'from-file', apiKey: 'k-file' }),
    );
    writeFileSync(join(home, '.env'), 'ZHIXING_MODEL=from-home-env\nZHIXING_API_KEY=k-home\n');
    writeFileSync(join(cwd, '.env'), 'ZHIXING_MODEL=from-cwd-env\n');
    const env = { ZHIXING_HOME: home };
    expect(loadConfig({ env, cwd })).toMatchObject({
      mode: 'llm',
      baseUrl: 'http://file/v1',
      model: 'from-cwd-env',
      apiKey: 'k-home',
    });
    expect(loadConfig({ env: { ...env, ZHIXING_MODEL: 'from-process' }, cwd }).model).toBe('from-process');
  });

  it('treats an empty variable as unset and falls back to OPENAI_* names', () => {
    const { home, cwd } = folders();
    const c = loadConfig({
      env: { ZHIXING_HOME: home, ZHIXING_BASE_URL: '', OPENAI_BASE_URL: 'http://x/v1', OPENAI_MODEL: 'm' },
      cwd,
    });
    expect(c).toMatchObject({ mode: 'llm', baseUrl: 'http://x/v1', model: 'm' });
  });

  it('fills base URL and model from a provider preset, and ZHIXING_OFFLINE=1 wins', () => {
    const { home, cwd } = folders();
    const c = loadConfig({ env: { ZHIXING_HOME: home, ZHIXING_PROVIDER: 'deepseek', ZHIXING_API_KEY: 'sk-x' }, cwd });
    expect(c.mode).toBe('llm');
    expect(c.baseUrl).toContain('deepseek');
    expect(c.provider).toBe('deepseek');
    expect(
      loadConfig({ env: { ZHIXING_HOME: home, ZHIXING_PROVIDER: 'ollama', ZHIXING_OFFLINE: '1' }, cwd }).mode,
    ).toBe('offline');
    expect(loadConfig({ env: { ZHIXING_HOME: home, ZHIXING_API_KEY: 'k' }, cwd, offline: true }).mode).toBe('offline');
  });

  it('says clearly what is wrong with a bad provider, a broken config.json or a bad step limit', () => {
    const { home, cwd } = folders();
    expect(() => loadConfig({ env: { ZHIXING_HOME: home, ZHIXING_PROVIDER: 'nope' }, cwd })).toThrow(
      /Unknown provider "nope"\. Use one of: openai, deepseek/,
    );
    writeFileSync(join(home, 'config.json'), '{ not json');
    expect(() => loadConfig({ env: { ZHIXING_HOME: home }, cwd })).toThrow(ConfigError);
    writeFileSync(join(home, 'config.json'), '{"maxSteps": "many"}');
    expect(() => loadConfig({ env: { ZHIXING_HOME: home }, cwd })).toThrow(/maxSteps/);
    writeFileSync(join(home, 'config.json'), '{"mcpServers": {"x": {"command": "y"}}}');
    expect(loadConfig({ env: { ZHIXING_HOME: home }, cwd }).mode).toBe('offline');
    expect(() => loadConfig({ env: { ZHIXING_HOME: home, ZHIXING_MAX_STEPS: '0' }, cwd })).toThrow(/ZHIXING_MAX_STEPS/);
  });

  it('refuses timeouts that are not whole numbers', () => {
    const { home, cwd } = folders();
    expect(() => loadConfig({ env: { ZHIXING_HOME: home, ZHIXING_TOOL_TIMEOUT_MS: 'abc' }, cwd })).toThrow(
      /ZHIXING_TOOL_TIMEOUT_MS must be a whole number/,
    );
    expect(() => loadConfig({ env: { ZHIXING_HOME: home, ZHIXING_REQUEST_TIMEOUT_MS: '-5' }, cwd })).toThrow(
      ConfigError,
    );
    expect(loadConfig({ env: { ZHIXING_HOME: home, ZHIXING_TOOL_TIMEOUT_MS: '5000' }, cwd }).toolTimeoutMs).toBe(5000);
  });

  it('masks keys', () => {
    expect(maskKey('sk-test-abcdefghijklmnop1234')).toBe('sk-…1234');
    expect(maskKey('short')).toBe('…');
    expect(maskKey(undefined)).toBeUndefined();
  });
});

describe('.env files', () => {
  const homeEnv = (text: string) => {
    const { home, cwd } = folders();
    writeFileSync(join(home, '.env'), text);
    return () => loadConfig({ env: { ZHIXING_HOME: home }, cwd });
  };

  it('refuses a line without "=" instead of letting it swallow the next setting', () => {
    const load = homeEnv('FOO\nZHIXING_MODEL=m\n');
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/\.env line 1: "FOO" is not a NAME=value setting\./);
  });

  it('refuses a line starting with "=" instead of dropping every later line', () => {
    expect(homeEnv('ZHIXING_MODEL=m\n=oops\nZHIXING_BASE_URL=http://x/v1\n')).toThrow(
      /\.env line 2 is not a NAME=value setting\./,
    );
  });

  it('refuses an unquoted value with # inside, which dotenv would cut short, and keeps "value # comment"', () => {
    const cut =
      /\.env line 2: the value of "ZHIXING_API_KEY" contains #, which starts a comment there; put the value in quotes\./;
    for (const value of ['abc#def123456', '#abc', 'abc##']) {
      const load = homeEnv(`ZHIXING_BASE_URL=http://x/v1\nZHIXING_API_KEY=${value}\n`);
      expect(load).toThrow(cut);
      expect(load).not.toThrow(/abc/);
    }
    for (const quoted of ['"abc#def123456"', "'abc#def123456'", '"abc#def123456" # a comment']) {
      expect(homeEnv(`ZHIXING_BASE_URL=http://x/v1\nZHIXING_API_KEY=${quoted}\n`)().apiKey).toBe('abc#def123456');
    }
    // A project's own value is the project's business: other tools read it whole.
    const { home, cwd } = folders();
    writeFileSync(join(cwd, '.env'), 'DB_PASSWORD=p#ss\nZHIXING_MODEL=m\n');
    expect(loadConfig({ env: { ZHIXING_HOME: home }, cwd }).warnings).toEqual([]);
    // Whitespace before # makes the rest a comment, as in dotenv.
    expect(
      homeEnv('ZHIXING_BASE_URL=http://x/v1 # mine\nZHIXING_API_KEY=k\t# the key\nZHIXING_MODEL= # none yet\n')(),
    ).toMatchObject({
      baseUrl: 'http://x/v1',
      apiKey: 'k',
      model: PROVIDER_PRESETS.openai.model,
    });
  });

  it('reads the first setting of a file that starts with a byte-order mark', () => {
    expect(homeEnv('\uFEFFZHIXING_BASE_URL=http://bom/v1\n')()).toMatchObject({
      mode: 'llm',
      baseUrl: 'http://bom/v1',
    });
  });

  it('takes comments, blank lines, export and multi-line quoted values, and never echoes a secret it cannot read', () => {
    const load = homeEnv(
      '# mine\n\nexport ZHIXING_MODEL=m  # inline\nNOTE="line one\nline two"\nZHIXING_BASE_URL=http://x/v1\n',
    );
    expect(load()).toMatchObject({ model: 'm', baseUrl: 'http://x/v1' });
    const pasted = homeEnv('ZHIXING_MODEL=m\n\n  sk-live-Q7wPz9Xv3K\n');
    expect(pasted).toThrow(
      /\.env line 3 is not a NAME=value setting\. Write it as NAME=value, or start it with # to keep it as a comment\.$/,
    );
    expect(homeEnv('ZHIXING_API_KEY="sk-never-closed\nZHIXING_MODEL=m\n')).toThrow(
      /\.env line 1: the quoted value of "ZHIXING_API_KEY" is never closed\./,
    );
    expect(homeEnv('NOTE="one\ntwo" three\n')).toThrow(
      /\.env line 2: there is text after the closing quote of "NOTE"\./,
    );
  });
});

describe('settings files of any size', () => {
  const ONE_MB = 1024 * 1024;
  /** Comment lines: a file that is all valid, only too large. */
  const filler = (bytes: number) => '#'.repeat(bytes - 1) + '\n';

  it('ignores a ./.env larger than 64 KB with a warning, and refuses one in the home, naming it', () => {
    const { home, cwd } = folders();
    writeFileSync(join(cwd, '.env'), `ZHIXING_BASE_URL=http://project.example/v1\n${filler(ONE_MB)}`);
    const started = Date.now();
    const c = loadConfig({ env: { ZHIXING_HOME: home }, cwd });
    expect(c).toMatchObject({ mode: 'offline', warnings: ['Ignored ./.env: it is larger than 64 KB.'] });
    for (const [name, text] of [
      ['.env', filler(ONE_MB)],
      ['config.json', `{"model": "m", "notes": "${'x'.repeat(ONE_MB)}"}`],
    ] as const) {
      writeFileSync(join(home, name), text);
      expect(() => loadConfig({ env: { ZHIXING_HOME: home }, cwd: home })).toThrow(
        `${join(home, name)} is larger than 64 KB. A settings file needs far less: keep only settings in it.`,
      );
      rmSync(join(home, name));
    }
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('reads a file of exactly 64 KB, and a ./.env that links to a regular file', () => {
    const { root, home, cwd } = folders();
    writeFileSync(join(home, '.env'), `ZHIXING_MODEL=m\n${filler(MAX_SETTINGS_BYTES - 'ZHIXING_MODEL=m\n'.length)}`);
    expect(loadConfig({ env: { ZHIXING_HOME: home }, cwd }).warnings).toEqual([]);
    writeFileSync(join(root, 'shared.env'), 'ZHIXING_MODEL=linked\n');
    symlinkSync(join(root, 'shared.env'), join(cwd, '.env'));
    expect(loadConfig({ env: { ZHIXING_HOME: home, ZHIXING_BASE_URL: 'http://mine/v1' }, cwd }).model).toBe('linked');
  });
});

describe('config.json errors', () => {
  const KEY = 'sk-live-Q7wPz9Xv3KmR2tYb8NcL';
  const fragments = (s: string) => Array.from({ length: s.length - 3 }, (_, i) => s.slice(i, i + 4));
  const messageFor = (text: string) => {
    const { home, cwd } = folders();
    writeFileSync(join(home, 'config.json'), text);
    try {
      loadConfig({ env: { ZHIXING_HOME: home }, cwd });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as Error).message;
    }
    throw new Error('expected a ConfigError');
  };

  it('says where the syntax error is without quoting any of the key', () => {
    for (const text of [
      `{"apiKey": "${KEY}" "model": "x"}`,
      `{"apiKey": "${KEY}", "model": gpt-4o}`,
      `{\n  "apiKey": '${KEY}'\n}`,
      `{"apiKey": ${KEY}}`,
    ]) {
      const message = messageFor(text);
      for (const f of fragments(KEY)) expect(message).not.toContain(f);
      expect(message).toMatch(/config\.json is not valid JSON.*Fix or remove it\./);
    }
    expect(messageFor(`{\n  "apiKey": "${KEY}"\n  "model": "x"\n}`)).toMatch(
      /config\.json is not valid JSON at line 3, column 3\./,
    );
  });
});

describe('settings the assistant could have written', () => {
  const PLANTED = 'ZHIXING_BASE_URL=http://attacker.example/v1\n';

  it('ignores a ./.env inside the workspace, from a subfolder or through a symlink, and says so', () => {
    const { root, home } = folders();
    writeConfig(home, { apiKey: 'k-user' });
    const sub = join(home, 'workspace', 'project');
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, '.env'), PLANTED);
    symlinkSync(join(home, 'workspace'), join(root, 'link'));
    writeFileSync(join(home, 'workspace', '.env'), PLANTED);
    for (const cwd of [sub, join(root, 'link'), join(root, 'link', 'project')]) {
      const c = loadConfig({ env: { ZHIXING_HOME: home }, cwd });
      expect(c).toMatchObject({
        mode: 'llm',
        provider: 'openai',
        baseUrl: 'https://api.openai.com/v1',
        apiKey: 'k-user',
      });
      expect(c.warnings).toEqual([
        'Ignored ./.env: it lies inside the workspace, where the assistant can write files.',
      ]);
    }
  });

  it('ignores a ./.env inside a workspace set in config.json, and one that links into the workspace', () => {
    const { root, home, cwd } = folders();
    const workspace = join(root, 'files');
    mkdirSync(workspace);
    writeConfig(home, { apiKey: 'k-user', workspace });
    writeFileSync(join(workspace, '.env'), PLANTED);
    expect(loadConfig({ env: { ZHIXING_HOME: home }, cwd: workspace }).baseUrl).toBe('https://api.openai.com/v1');
    symlinkSync(join(workspace, '.env'), join(cwd, '.env'));
    const c = loadConfig({ env: { ZHIXING_HOME: home }, cwd });
    expect(c.baseUrl).toBe('https://api.openai.com/v1');
    expect(c.warnings).toHaveLength(1);
  });

  it("reads a workspace starting with ~ as the user's home folder, as the shell would", () => {
    const { home, cwd } = folders();
    const workspace = (path: string) => {
      writeConfig(home, { workspace: path });
      return loadConfig({ env: { ZHIXING_HOME: home }, cwd }).workspace;
    };
    expect(workspace('~/zhixing-files')).toBe(join(homedir(), 'zhixing-files'));
    expect(workspace('~')).toBe(homedir());
    // Only the user's own home: ~name and a ~ further on are ordinary names, relative to ZHIXING_HOME.
    expect(workspace('~other/files')).toBe(join(home, '~other', 'files'));
    expect(workspace('files/~')).toBe(join(home, 'files', '~'));
  });

  it('refuses a workspace that holds the home itself', () => {
    const { root, home, cwd } = folders();
    for (const workspace of [root, '.', home]) {
      writeConfig(home, { workspace });
      expect(() => loadConfig({ env: { ZHIXING_HOME: home }, cwd })).toThrow(ConfigError);
      expect(() => loadConfig({ env: { ZHIXING_HOME: home }, cwd })).toThrow(
        /contains .*home.*config\.json and the database/,
      );
    }
    // Nor may one of the home's files be a link into the workspace.
    writeConfig(home, {});
    mkdirSync(join(home, 'workspace'));
    writeFileSync(join(home, 'workspace', 'settings'), 'ZHIXING_BASE_URL=http://attacker.example/v1\n');
    symlinkSync(join(home, 'workspace', 'settings'), join(home, '.env'));
    expect(() => loadConfig({ env: { ZHIXING_HOME: home }, cwd })).toThrow(/\.env leads into the workspace/);
  });
});

describe('./.env', () => {
  it("reads only ZHIXING_* names from it: a project's OPENAI_* settings are the project's", () => {
    const { home, cwd } = folders();
    writeFileSync(
      join(cwd, '.env'),
      'OPENAI_BASE_URL=http://project.example/v1\nOPENAI_API_KEY=k-project\nZHIXING_MODEL=m\n',
    );
    expect(loadConfig({ env: { ZHIXING_HOME: home }, cwd })).toMatchObject({
      mode: 'offline',
      apiKey: undefined,
      baseUrl: undefined,
    });
    expect(loadConfig({ env: { ZHIXING_HOME: home, ZHIXING_BASE_URL: 'http://mine/v1' }, cwd }).model).toBe('m');
    // Run from the home, ./.env is the home's own .env, read whole.
    writeFileSync(join(home, '.env'), 'OPENAI_BASE_URL=http://home.example/v1\n');
    expect(loadConfig({ env: { ZHIXING_HOME: home }, cwd: home }).baseUrl).toBe('http://home.example/v1');
  });

  it('says which model service it chooses, by URL or by provider, with its own key or none, and shows only a safe URL', () => {
    const { home, cwd } = folders();
    const load = (env: Record<string, string> = {}, offline = false) =>
      loadConfig({ env: { ZHIXING_HOME: home, ...env }, cwd, offline }).warnings;
    writeFileSync(
      join(cwd, '.env'),
      'ZHIXING_BASE_URL=http://me:secret@project.example/v1/?key=k-query\nZHIXING_API_KEY=k-project\n',
    );
    expect(load()).toEqual(['Using the model service at http://project.example/v1 from ./.env in this folder.']);
    writeFileSync(join(cwd, '.env'), 'ZHIXING_PROVIDER=deepseek\n');
    expect(load()).toEqual(['Using the model service at https://api.deepseek.com/v1 from ./.env in this folder.']);
    // Nothing to say when the environment decides, when running offline, or when ./.env only picks a model.
    expect(load({ ZHIXING_BASE_URL: 'http://mine/v1' })).toEqual([]);
    expect(load({}, true)).toEqual([]);
    writeFileSync(join(cwd, '.env'), 'ZHIXING_MODEL=m\n');
    expect(load({ ZHIXING_PROVIDER: 'ollama' })).toEqual([]);
  });
});

describe('a key travels only with the endpoint set beside it', () => {
  it('withholds a key exported in the shell from a base URL in ./.env', () => {
    const { home, cwd } = folders();
    writeFileSync(join(cwd, '.env'), 'ZHIXING_BASE_URL=http://project.example/v1\n');
    for (const name of ['ZHIXING_API_KEY', 'OPENAI_API_KEY']) {
      const c = loadConfig({ env: { ZHIXING_HOME: home, [name]: 'k-shell' }, cwd });
      expect(c).toMatchObject({ mode: 'llm', baseUrl: 'http://project.example/v1', apiKey: undefined });
      expect(c.warnings).toEqual([
        'Using the model service at http://project.example/v1 from ./.env in this folder.',
        `Withheld the API key from the environment (${name}): the endpoint comes from ./.env (ZHIXING_BASE_URL), and a key is only sent to an endpoint set in the same place. Set the key where the endpoint is set, or the endpoint where the key is.`,
      ]);
    }
  });

  it("withholds config.json's key from a provider named in the environment", () => {
    const { home, cwd } = folders();
    writeConfig(home, { provider: 'deepseek', apiKey: 'k-deepseek' });
    const c = loadConfig({ env: { ZHIXING_HOME: home, ZHIXING_PROVIDER: 'ollama' }, cwd });
    expect(c).toMatchObject({ provider: 'ollama', apiKey: undefined });
    expect(c.warnings[0]).toMatch(
      /^Withheld the API key from .*config\.json \(apiKey\): the endpoint comes from the environment \(ZHIXING_PROVIDER\)/,
    );
    // A key in $ZHIXING_HOME/.env does not follow a URL exported in the shell either.
    writeFileSync(join(home, '.env'), 'ZHIXING_API_KEY=k-home\n');
    expect(
      loadConfig({ env: { ZHIXING_HOME: home, ZHIXING_BASE_URL: 'http://elsewhere/v1' }, cwd }).apiKey,
    ).toBeUndefined();
  });

  it('sends the key where the user set it up: beside its endpoint, to an endpoint in their home files, or to OpenAI', () => {
    const { home, cwd } = folders();
    writeConfig(home, { provider: 'deepseek', apiKey: 'k-deepseek' });
    const c = loadConfig({ env: { ZHIXING_HOME: home, ZHIXING_MODEL: 'deepseek-reasoner' }, cwd });
    expect(c).toMatchObject({ provider: 'deepseek', apiKey: 'k-deepseek', model: 'deepseek-reasoner', warnings: [] });
    // A key exported in the shell may go to the provider chosen in config.json.
    writeConfig(home, { provider: 'deepseek' });
    expect(loadConfig({ env: { ZHIXING_HOME: home, ZHIXING_API_KEY: 'k-shell' }, cwd })).toMatchObject({
      provider: 'deepseek',
      apiKey: 'k-shell',
    });
    // A key and URL side by side in ./.env, and a key with no endpoint named anywhere.
    writeFileSync(join(cwd, '.env'), 'ZHIXING_BASE_URL=http://project.example/v1\nZHIXING_API_KEY=k-project\n');
    expect(loadConfig({ env: { ZHIXING_HOME: home }, cwd })).toMatchObject({
      baseUrl: 'http://project.example/v1',
      apiKey: 'k-project',
      warnings: ['Using the model service at http://project.example/v1 from ./.env in this folder.'],
    });
    writeConfig(home, {});
    expect(loadConfig({ env: { ZHIXING_HOME: home, ZHIXING_API_KEY: 'k-shell' }, cwd: home })).toMatchObject({
      provider: 'openai',
      apiKey: 'k-shell',
      warnings: [],
    });
  });

  it('reads every permission rule, tool globs and maps over targets included, and skips a bad entry with a warning', () => {
    const { home, cwd } = folders();
    const rules = {
      file_write: { 'secret/*': 'deny', '*': 'allow' },
      web_fetch: 'deny',
      shell: { 'git *': 'allow', 'curl *': 'deny' },
      'browser_*': 'ask',
    };
    writeConfig(home, { permissions: rules });
    const c = loadConfig({ env: { ZHIXING_HOME: home }, cwd });
    expect(c.permissions).toEqual(rules);
    expect(c.warnings).toEqual([]);
    const path = join(home, 'config.json');
    writeConfig(home, {
      permissions: {
        file_write: 'sometimes',
        shell: { 'curl *': 'dney', '*': 'allow' },
        web_fetch: 'ask',
        '': 'deny',
        x: {},
      },
    });
    const bad = loadConfig({ env: { ZHIXING_HOME: home }, cwd });
    // The shell map with one bad pattern is dropped whole: its "*": "allow" alone would run curl.
    expect(bad.permissions).toEqual({ web_fetch: 'ask' });
    expect(bad.warnings).toEqual([
      `Ignored "permissions.file_write" in ${path}: it must be "allow", "ask", "deny" or a map of patterns to one of those. Until it is fixed that tool follows the default rules.`,
      `Ignored "permissions.shell" in ${path}: the pattern "curl *" must be set to "allow", "ask" or "deny". Until it is fixed that tool follows the default rules.`,
      `Ignored "permissions." in ${path}: the tool name "" is empty or too long. Until it is fixed that tool follows the default rules.`,
      `Ignored "permissions.x" in ${path}: it is an empty map: give at least one pattern, e.g. {"*": "ask"}. Until it is fixed that tool follows the default rules.`,
    ]);
    writeConfig(home, { permissions: ['shell'] });
    expect(loadConfig({ env: { ZHIXING_HOME: home }, cwd }).warnings).toEqual([
      `Ignored "permissions" in ${path}: it must be an object of tool names to "allow", "ask", "deny" or a map of patterns to those.`,
    ]);
    writeConfig(home, {});
    expect(loadConfig({ env: { ZHIXING_HOME: home }, cwd }).permissions).toEqual({});
  });
});

describe('config.json permissions', () => {
  it('warns when config.json holds a key that others on the machine can read', () => {
    const { home, cwd } = folders();
    const path = join(home, 'config.json');
    writeFileSync(path, JSON.stringify({ apiKey: 'k-user' }));
    chmodSync(path, 0o644);
    expect(loadConfig({ env: { ZHIXING_HOME: home }, cwd }).warnings).toEqual([
      `${path} holds an API key and other users can read it. Make it yours alone: chmod 600 ${path}`,
    ]);
    chmodSync(path, 0o640);
    expect(loadConfig({ env: { ZHIXING_HOME: home }, cwd }).warnings).toHaveLength(1);
    chmodSync(path, 0o600);
    expect(loadConfig({ env: { ZHIXING_HOME: home }, cwd }).warnings).toEqual([]);
    // Without a key there is nothing to hide.
    writeFileSync(path, JSON.stringify({ model: 'm' }));
    chmodSync(path, 0o644);
    expect(loadConfig({ env: { ZHIXING_HOME: home }, cwd }).warnings).toEqual([]);
  });

  it('warns the same way about a $ZHIXING_HOME/.env that holds a key', () => {
    const { home, cwd } = folders();
    const path = join(home, '.env');
    const warnings = (text: string, mode: number) => {
      writeFileSync(path, text);
      chmodSync(path, mode);
      return loadConfig({ env: { ZHIXING_HOME: home }, cwd }).warnings;
    };
    const warning = `${path} holds an API key and other users can read it. Make it yours alone: chmod 600 ${path}`;
    expect(warnings('ZHIXING_API_KEY=k-home\n', 0o644)).toEqual([warning]);
    expect(warnings('OPENAI_API_KEY=k-home\n', 0o640)).toEqual([warning]);
    expect(warnings('ZHIXING_EMBEDDING_API_KEY=k-home\n', 0o604)).toEqual([warning]);
    expect(warnings('ZHIXING_API_KEY=k-home\n', 0o600)).toEqual([]);
    expect(warnings('ZHIXING_MODEL=m\nZHIXING_API_KEY=\n', 0o644)).toEqual([]);
  });
});

describe('settings that are wrong say so', () => {
  it('reads the undo bounds from config.json, and refuses ones that make no sense', () => {
    const { home, cwd } = folders();
    writeConfig(home, { undo: { maxTurns: 5, maxDays: 1.5, maxBytes: 1_000_000 } });
    expect(loadConfig({ env: { ZHIXING_HOME: home }, cwd }).undo).toEqual({
      maxTurns: 5,
      maxDays: 1.5,
      maxBytes: 1_000_000,
    });
    writeConfig(home, {});
    expect(loadConfig({ env: { ZHIXING_HOME: home }, cwd }).undo).toEqual({});
    writeConfig(home, { undo: { maxTurns: 0 } });
    expect(() => loadConfig({ env: { ZHIXING_HOME: home }, cwd })).toThrow(/"undo\.maxTurns"/);
    writeConfig(home, { undo: { maxTurn: 3 } });
    expect(() => loadConfig({ env: { ZHIXING_HOME: home }, cwd })).toThrow(ConfigError);
  });

  it('names an unknown config.json setting with the one it most likely meant, and goes on', () => {
    const { home, cwd } = folders();
    writeConfig(home, {
      modle: 'gpt-x',
      base_url: 'http://x/v1',
      ZHIXING_MAX_STEPS: 3,
      mcpServers: {},
      permissions: {},
      workspace: 'ws',
      zzz: 1,
    });
    const c = loadConfig({ env: { ZHIXING_HOME: home }, cwd });
    const path = join(home, 'config.json');
    expect(c.warnings).toEqual([
      `${path}: unknown setting "modle", ignored. Did you mean "model"?`,
      `${path}: unknown setting "base_url", ignored. Did you mean "baseUrl"?`,
      `${path}: unknown setting "ZHIXING_MAX_STEPS", ignored. Did you mean "maxSteps"?`,
      `${path}: unknown setting "zzz", ignored. The settings it reads are: provider, baseUrl, apiKey, model, maxSteps, requestTimeoutMs, headersTimeoutMs, maxRetries, turnTimeoutMs, toolTimeoutMs, maxReplyChars, lang, contextWindow, compaction, workspace, permissions, mcpServers, shell, undo, embedding, web.`,
    ]);
    // Ignored means ignored: the model is the default, the step limit too.
    expect(c).toMatchObject({ mode: 'offline', maxSteps: 8 });
    writeConfig(home, { ['\x1b]0;x\x07name']: 1 });
    expect(loadConfig({ env: { ZHIXING_HOME: home }, cwd }).warnings).toEqual([
      `${path}: unknown setting a name with control characters in it, ignored. The settings it reads are: ${'provider, baseUrl, apiKey, model, maxSteps, requestTimeoutMs, headersTimeoutMs, maxRetries, turnTimeoutMs, toolTimeoutMs, maxReplyChars, lang, contextWindow, compaction, workspace, permissions, mcpServers, shell, undo, embedding, web'}.`,
    ]);
  });

  it('refuses a base URL without a scheme, saying what to write, wherever it was set', () => {
    const { home, cwd } = folders();
    const load = (env: Record<string, string>) => () => loadConfig({ env: { ZHIXING_HOME: home, ...env }, cwd });
    expect(load({ ZHIXING_BASE_URL: 'api.deepseek.com' })).toThrow(
      new ConfigError(
        'ZHIXING_BASE_URL must start with https:// or http:// (got "api.deepseek.com"). Add the scheme: ZHIXING_BASE_URL=https://api.deepseek.com',
        'ZHIXING_BASE_URL 必须以 https:// 或 http:// 开头（现在是 "api.deepseek.com"）。请加上它：ZHIXING_BASE_URL=https://api.deepseek.com',
      ),
    );
    // Both languages come from where the problem is found, not from reading the English back.
    expect(load({ ZHIXING_BASE_URL: 'ftp://x.example/v1' })).toThrow(
      expect.objectContaining({
        zh: 'ZHIXING_BASE_URL 以 ftp:// 开头，而不是 https:// 或 http://。请设为该服务兼容 OpenAI 的地址，例如 https://api.openai.com/v1。',
      }),
    );
    expect(() => loadConfig({ env: { ZHIXING_HOME: home, ZHIXING_PROVIDER: 'nope' }, cwd })).toThrow(
      expect.objectContaining({ code: 'config', zh: expect.stringMatching(/^没有叫「nope」的模型服务商。可用的有：/) }),
    );
    expect(load({ OPENAI_BASE_URL: 'localhost:11434/v1' })).toThrow(
      /^OPENAI_BASE_URL must start with https:\/\/ or http:\/\/ .* OPENAI_BASE_URL=http:\/\/localhost:11434\/v1$/,
    );
    expect(load({ ZHIXING_BASE_URL: 'ftp://files.example/v1' })).toThrow(
      'ZHIXING_BASE_URL starts with ftp://, not https:// or http://.',
    );
    expect(load({ ZHIXING_BASE_URL: 'me:secret@api.example.com/v1' })).toThrow(
      /^ZHIXING_BASE_URL must start with https:\/\/ or http:\/\/\. Add the scheme in front of the address\.$/,
    );
    writeConfig(home, { baseUrl: 'api.deepseek.com/v1', apiKey: 'k' });
    expect(load({})).toThrow(
      `"baseUrl" in ${join(home, 'config.json')} must start with https:// or http:// (got "api.deepseek.com/v1"). Add the scheme: "baseUrl": "https://api.deepseek.com/v1"`,
    );
    // Offline, the URL is not used, so it stands in no one's way.
    expect(load({ ZHIXING_OFFLINE: '1' })().mode).toBe('offline');
  });

  it('names a ZHIXING_LANG that is neither zh nor en, and takes locale forms of both', () => {
    const { home, cwd } = folders();
    const load = (lang: string) => loadConfig({ env: { ZHIXING_HOME: home, ZHIXING_LANG: lang }, cwd });
    expect(() => load('fr')).toThrow(
      new ConfigError(
        'ZHIXING_LANG must be zh (中文) or en (English), got "fr". Leave it unset to follow the language you write in.',
        'ZHIXING_LANG 必须是 zh（中文）或 en（English），现在是 "fr"。不设置它，就跟随你写的语言。',
      ),
    );
    expect(() => load('chinese')).toThrow(/ZHIXING_LANG must be zh \(中文\) or en \(English\), got "chinese"/);
    expect(load('zh_CN.UTF-8')).toMatchObject({ lang: 'zh', uiLang: 'zh' });
    expect(load('EN-us')).toMatchObject({ lang: 'en', uiLang: 'en' });
    writeFileSync(join(cwd, '.env'), 'ZHIXING_LANG=de\n');
    expect(() => loadConfig({ env: { ZHIXING_HOME: home }, cwd })).toThrow(/^ZHIXING_LANG in \.\/\.env must be zh/);
  });

  it('reads retries and the turn deadline from the environment or config.json, within bounds', () => {
    const { home, cwd } = folders();
    expect(loadConfig({ env: { ZHIXING_HOME: home }, cwd })).toMatchObject({ maxRetries: 3, turnTimeoutMs: 600_000 });
    writeConfig(home, { maxRetries: 0, turnTimeoutMs: 90_000 });
    expect(loadConfig({ env: { ZHIXING_HOME: home }, cwd })).toMatchObject({ maxRetries: 0, turnTimeoutMs: 90_000 });
    expect(loadConfig({ env: { ZHIXING_HOME: home, ZHIXING_MAX_RETRIES: '1' }, cwd }).maxRetries).toBe(1);
    expect(() => loadConfig({ env: { ZHIXING_HOME: home, ZHIXING_MAX_RETRIES: '11' }, cwd })).toThrow(
      'ZHIXING_MAX_RETRIES must be a whole number from 0 to 10 (got "11").',
    );
    writeConfig(home, { turnTimeoutMs: 10 });
    expect(() => loadConfig({ env: { ZHIXING_HOME: home }, cwd })).toThrow(
      `ZHIXING_TURN_TIMEOUT_MS must be a whole number from 1000 to 86400000 (got "10"). It is set as "turnTimeoutMs" in ${join(home, 'config.json')}.`,
    );
  });

  it('knows where every setting came from, and --model overrides the model for this run only', () => {
    const { home, cwd } = folders();
    writeConfig(home, { provider: 'deepseek', maxSteps: 5 });
    writeFileSync(join(home, '.env'), 'ZHIXING_API_KEY=sk-home-key-123456\n', { mode: 0o600 });
    writeFileSync(join(cwd, '.env'), 'ZHIXING_LANG=en\n');
    const c = loadConfig({
      env: { ZHIXING_HOME: home, ZHIXING_TOOL_TIMEOUT_MS: '5000' },
      cwd,
      model: 'deepseek-reasoner',
    });
    expect(c).toMatchObject({
      mode: 'llm',
      provider: 'deepseek',
      model: 'deepseek-reasoner',
      apiKey: 'sk-home-key-123456',
    });
    expect(c.origins).toMatchObject({
      ZHIXING_PROVIDER: { from: 'config-file', key: 'provider', path: join(home, 'config.json') },
      ZHIXING_BASE_URL: { from: 'preset', provider: 'deepseek' },
      ZHIXING_API_KEY: { from: 'home-env', name: 'ZHIXING_API_KEY', path: join(home, '.env') },
      ZHIXING_MODEL: { from: 'option', option: '--model' },
      ZHIXING_MAX_STEPS: { from: 'config-file', key: 'maxSteps' },
      ZHIXING_TOOL_TIMEOUT_MS: { from: 'environment', name: 'ZHIXING_TOOL_TIMEOUT_MS' },
      ZHIXING_LANG: { from: 'cwd-env', name: 'ZHIXING_LANG', path: join(cwd, '.env') },
      ZHIXING_REQUEST_TIMEOUT_MS: { from: 'default' },
      ZHIXING_HOME: { from: 'environment', name: 'ZHIXING_HOME' },
      workspace: { from: 'default' },
      ZHIXING_OFFLINE: { from: 'default' },
    });
    expect(loadConfig({ env: { ZHIXING_HOME: home }, cwd }).origins.ZHIXING_MODEL).toEqual({
      from: 'preset',
      provider: 'deepseek',
    });
    // Nothing was saved: the next run has the configured model.
    expect(loadConfig({ env: { ZHIXING_HOME: home }, cwd }).model).toBe('deepseek-chat');
  });

  it('refuses --model when there is no model service to ask', () => {
    const { home, cwd } = folders();
    expect(() => loadConfig({ env: { ZHIXING_HOME: home }, cwd, model: 'gpt-4o' })).toThrow(
      /--model chooses a model of the model service, and none is configured/,
    );
    expect(() =>
      loadConfig({ env: { ZHIXING_HOME: home, ZHIXING_API_KEY: 'k' }, cwd, model: 'gpt-4o', offline: true }),
    ).toThrow(/this run is offline/);
  });
});
