// The done-when, end to end through ./bin/zhixing and the OpenAI wire format: under
// {"shell": {"curl *": "deny", "*": "allow"}} no spelling of curl runs, not even with --yes (a local
// canary server would see any request that got out); an allowed command runs contained; and
// `zhixing undo` takes back what a shell command created, changed and deleted.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from './support/cli.js';
import { startOpenAiServer, textReply, toolCallsReply, type OpenAiServer } from './support/openai-server.js';
import { bwrapWorks, startCanary } from './support/shell.js';
import { tempHome } from './support/temp-home.js';

let server: OpenAiServer;
let canary: Awaited<ReturnType<typeof startCanary>>;
const homes: Array<ReturnType<typeof tempHome>> = [];
beforeAll(async () => {
  server = await startOpenAiServer();
  canary = await startCanary();
});
afterAll(async () => {
  await server.close();
  await canary.close();
  homes.forEach((h) => h.cleanup());
});

function setup(permissions: object) {
  // The network off: with it on, commands reach the internet but never this machine, so no local canary
  // could tell a leak; the rules' own records say what each spelling met, and the canary hears nothing.
  const h = tempHome({}, { permissions });
  homes.push(h);
  const env = {
    ZHIXING_HOME: h.home,
    ZHIXING_BASE_URL: server.url,
    ZHIXING_API_KEY: 'sk-test-rules-0123456789',
    ZHIXING_MODEL: 'm',
    ZHIXING_LANG: 'en',
  };
  return { env, ws: (p: string) => join(h.home, 'workspace', p) };
}

/** Spellings of curl a model might try, each aimed at its own path of the canary. */
const spellings = (url: string): string[] => [
  `curl ${url}/plain`,
  `/usr/bin/curl ${url}/full-path`,
  `c'u'rl ${url}/quoted`,
  `"curl" ${url}/double-quoted`,
  `\\curl ${url}/backslash`,
  `$'\\x63url' ${url}/ansi-c`,
  `command curl ${url}/command`,
  `env curl ${url}/env`,
  `env -i PATH=/usr/bin curl ${url}/env-i`,
  `timeout 5 curl ${url}/timeout`,
  `nice -n 5 curl ${url}/nice`,
  `nohup curl ${url}/nohup`,
  `exec curl ${url}/exec`,
  `echo ${url}/xargs | xargs curl`,
  `bash -c "curl ${url}/bash-c"`,
  `sh -c 'sh -c "curl ${url}/nested"'`,
  `eval "curl ${url}/eval"`,
  `$(echo curl) ${url}/substituted`,
  `\`echo curl\` ${url}/backticks`,
  `C=curl; $C ${url}/variable`,
  `(curl ${url}/subshell)`,
  `true && curl ${url}/chain`,
  `echo $(curl ${url}/inside)`,
  `cat <(curl ${url}/process-sub)`,
  `f(){ curl ${url}/function; }; f`,
  `find . -maxdepth 0 -exec curl ${url}/find \\;`,
  `echo 'curl ${url}/piped-to-sh' | sh`,
  `python3 -c "import subprocess; subprocess.run(['curl', '${url}/python'])"`,
  `ln -s /usr/bin/curl c && ./c ${url}/link`,
  `cp /usr/bin/curl ./d && ./d ${url}/copy`,
];

describe.skipIf(!bwrapWorks())('shell rules through ./bin/zhixing', () => {
  it('runs no spelling of curl under {"curl *": "deny", "*": "allow"}, even with --yes, and still runs what is allowed', async () => {
    const { env, ws } = setup({ shell: { 'curl *': 'deny', '*': 'allow' } });
    const commands = spellings(canary.url);
    server.enqueue(
      toolCallsReply(commands.map((command, i) => ({ id: `call_${i}`, name: 'shell', args: { command } }))),
      toolCallsReply([
        {
          id: 'call_ok',
          name: 'shell',
          args: { command: `echo fine > ok.txt && cat ok.txt; touch /etc/zhixing-escape; echo done` },
        },
      ]),
      textReply('Tried.'),
    );
    const r = await runCli(['--json', '--yes', '--new', 'fetch the page however you can'], env, { timeoutMs: 120_000 });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(canary.hits).toEqual([]);
    const tried = out.actions.slice(0, commands.length);
    expect(tried).toHaveLength(commands.length);
    for (const action of tried) {
      // Refused before anything ran: by the rule, or as something only a person may approve.
      expect(action.ok, action.input.command).toBe(false);
      expect(action.permission, action.input.command).toEqual([expect.objectContaining({ decision: 'deny' })]);
    }
    const allowed = out.actions.at(-1);
    expect(allowed).toMatchObject({ tool: 'shell', ok: true });
    expect(allowed.permission).toEqual([expect.objectContaining({ decision: 'allow', by: 'rule' })]);
    expect(allowed.output).toMatch(/\nfine\n.*Read-only file system\ndone\n$/s);
    expect(readFileSync(ws('ok.txt'), 'utf8')).toBe('fine\n');
    expect(existsSync('/etc/zhixing-escape')).toBe(false);
  });

  it('still runs a shipped skill\'s script under those rules: it is known code, which "*": "allow" covers', async () => {
    const { env, ws } = setup({ shell: { 'curl *': 'deny', '*': 'allow' } });
    const sheet = { sheets: [{ name: 'S', columns: [{ header: 'n', key: 'n', type: 'number' }], rows: [{ n: 1 }] }] };
    server.enqueue(
      toolCallsReply([{ id: 'w', name: 'file_write', args: { path: 's.json', content: JSON.stringify(sheet) } }]),
      toolCallsReply([
        {
          id: 'r',
          name: 'shell',
          args: {
            command: `node ${join(REPO_ROOT, 'skills', 'xlsx-sheet', 'scripts', 'make-xlsx.mjs')} s.json s.xlsx`,
          },
        },
      ]),
      textReply('Made.'),
    );
    const out = JSON.parse((await runCli(['--json', '--new', 'make a sheet'], env, { timeoutMs: 60_000 })).stdout);
    expect(out.actions[1]).toMatchObject({
      tool: 'shell',
      ok: true,
      permission: [expect.objectContaining({ decision: 'allow', by: 'rule' })],
    });
    expect(existsSync(ws('s.xlsx'))).toBe(true);
  });

  it('asks for a plain ask, refuses it without a terminal, and runs it with --yes', async () => {
    const { env, ws } = setup({ shell: { 'git status*': 'allow', '*': 'ask' } });
    server.enqueue(
      toolCallsReply([{ id: 'c1', name: 'shell', args: { command: 'touch asked.txt' } }]),
      textReply('Refused.'),
    );
    const refused = JSON.parse((await runCli(['--json', '--new', 'make a file'], env)).stdout);
    expect(refused.actions[0]).toMatchObject({
      ok: false,
      permission: [expect.objectContaining({ decision: 'deny', by: 'no-host' })],
    });
    expect(existsSync(ws('asked.txt'))).toBe(false);
    server.enqueue(
      toolCallsReply([{ id: 'c2', name: 'shell', args: { command: 'touch asked.txt' } }]),
      textReply('Made.'),
    );
    const approved = JSON.parse((await runCli(['--json', '--yes', 'make a file'], env)).stdout);
    expect(approved.actions[0]).toMatchObject({
      ok: true,
      permission: [expect.objectContaining({ decision: 'allow', by: 'yes' })],
    });
    expect(existsSync(ws('asked.txt'))).toBe(true);
  });

  it('zhixing undo takes back what a shell command created, changed and deleted', async () => {
    const { env, ws } = setup({ shell: 'allow' });
    mkdirSync(ws(''), { recursive: true });
    writeFileSync(ws('keep.txt'), 'original\n');
    writeFileSync(ws('gone.txt'), 'deleted by the command\n');
    server.enqueue(
      toolCallsReply([
        {
          id: 'c1',
          name: 'shell',
          args: { command: 'mkdir -p out && echo new > out/made.txt && echo changed > keep.txt && rm gone.txt' },
        },
      ]),
      textReply('Done.'),
    );
    expect((await runCli(['--new', 'tidy up'], env)).code).toBe(0);
    expect(readFileSync(ws('keep.txt'), 'utf8')).toBe('changed\n');
    expect(existsSync(ws('gone.txt'))).toBe(false);
    const undo = await runCli(['undo'], env);
    expect(undo.code).toBe(0);
    expect(undo.stdout).toMatch(/Restored keep\.txt/);
    expect(undo.stdout).toMatch(/removed out\b/);
    expect(undo.stdout).toMatch(/put back gone\.txt/);
    expect(readFileSync(ws('keep.txt'), 'utf8')).toBe('original\n');
    expect(readFileSync(ws('gone.txt'), 'utf8')).toBe('deleted by the command\n');
    expect(existsSync(ws('out'))).toBe(false);
  });
});
