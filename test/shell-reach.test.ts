import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectSandbox, type SandboxInfo } from '../src/shell/sandbox.js';
import { bwrapWorks, shellFixture, shellRunner, type ShellFixture } from './support/shell.js';

/**
 * What a sandboxed command can reach: nothing of the user's home or the folder Zhixing was started
 * in, however it asks, and with the network on, nothing local.
 */
const HAVE_BWRAP = bwrapWorks();
if (!HAVE_BWRAP)
  console.warn(
    'sandbox reach tests skipped: bubblewrap (bwrap) does not run on this machine (apt-get install bubblewrap)',
  );

/** In every planted file: found anywhere in a command's output, reversed or not, it got out. */
const MARK = 'zxplanted4417';
const PLANTED: Record<string, string> = {
  '.bashrc': `export OPENAI_API_KEY=sk-${MARK}-bashrc\n`,
  '.profile': `export ANTHROPIC_API_KEY=sk-ant-${MARK}-profile\n`,
  '.zshrc': `export GITHUB_TOKEN=ghp_${MARK}zshrc\n`,
  '.claude/.credentials.json': `{"token":"${MARK}-claude"}`,
  '.codex/auth.json': `{"OPENAI_API_KEY":"${MARK}-codex"}`,
  '.cache/huggingface/token': `hf_${MARK}token`,
  '.gitconfig': `[url "https://x:${MARK}@example.com/"]\n\tinsteadOf = https://example.com/\n`,
  '.config/opencode/auth.json': `{"key":"${MARK}-opencode"}`,
  '.s3cfg': `secret_key = ${MARK}-s3\n`,
  '.ssh/id_ed25519': `-----BEGIN OPENSSH PRIVATE KEY----- ${MARK}`,
  '.aws/credentials': `aws_secret_access_key = ${MARK}-aws\n`,
};
const reversed = [...MARK].reverse().join('');
const hex = Buffer.from(MARK).toString('hex');

let fx: ShellFixture;
let start: string;
let sandbox: SandboxInfo;
let offline: SandboxInfo;
beforeAll(async () => {
  fx = shellFixture();
  for (const [rel, text] of Object.entries(PLANTED)) {
    mkdirSync(path.dirname(path.join(fx.userHome, rel)), { recursive: true });
    writeFileSync(path.join(fx.userHome, rel), text);
  }
  // The folder Zhixing was started in, with the project's own .env.
  start = path.join(fx.base, 'project');
  mkdirSync(start);
  writeFileSync(path.join(start, '.env'), `ZHIXING_API_KEY=sk-${MARK}-dotenv\n`);
  sandbox = await detectSandbox({ searchPath: process.env.PATH ?? '', network: true });
  offline = await detectSandbox({ searchPath: process.env.PATH ?? '', network: false });
});
afterAll(() => fx.cleanup());

const env = {
  ...process.env,
  HOME: '/should-not-matter',
  SOME_TOKEN: `${MARK}-env`,
  DATABASE_URL: `postgres://u:${MARK}@db/x`,
};
const run = (command: string, o: { network?: boolean } = {}) =>
  shellRunner(fx, {
    sandbox: async () => (o.network ? sandbox : offline),
    network: o.network ?? false,
    env,
    private: [start],
    analyze: async (c) => ({ ok: true, parts: [{ text: c }] }),
  })({ command });

function expectNothingOut(output: string) {
  expect(output).not.toContain(MARK);
  expect(output).not.toContain(reversed);
  expect(output).not.toContain(hex);
}

describe.skipIf(!HAVE_BWRAP)('what a sandboxed command can read', () => {
  it("sees none of the planted credentials in the user's home or the start folder, by any spelling", async () => {
    const u = fx.userHome;
    const files = [...Object.keys(PLANTED).map((rel) => path.join(u, rel)), path.join(start, '.env')];
    const r = await run(
      [
        `cat ${files.join(' ')}`,
        `rev ${files.join(' ')}`,
        `od -An -tx1 ${files.join(' ')} | tr -d ' \\n'`,
        `tr 'a-z' 'n-za-m' < ${u}/.bashrc`,
        'ls -aR ~',
        `ls -a ${u} ${start}`,
        'find / -maxdepth 6 \\( -name .env -o -name "*.json" -path "*codex*" \\) 2>/dev/null',
        'cat /proc/1/environ /proc/self/environ | tr "\\0" "\\n"',
        `cat ${os.homedir()}/.bashrc ${process.cwd()}/.env`,
        // The mark split in two, so the command line itself does not hold it.
        'find / -maxdepth 6 -type f -not -path "/proc/*" -not -path "/usr/*" -not -path "/dev/*" -print0 2>/dev/null | xargs -0 grep -l "zxplan""ted4417" 2>/dev/null; echo grep-done',
      ].join('; '),
    );
    expect(r.ok).toBe(true);
    expect(r.output).toContain('grep-done');
    expect(r.output).toMatch(/No such file or directory/);
    expectNothingOut(r.output);
  });

  it('gets an empty home of its own, where git still commits under a name of its own', async () => {
    const r = await run(
      'ls -A ~ | grep -v "^\\.\\(cargo\\|pyenv\\|rustup\\|nvm\\)$"; echo "HOME=$HOME"; git init -q repo && cd repo && echo x > f && git add f && git commit -qm first && git log --format="%an <%ae>"',
    );
    expect(r.output).toContain(`HOME=${fx.userHome}\n`);
    expect(r.output).toContain('Zhixing <zhixing@localhost>');
    expectNothingOut(r.output);
  });
});

/** A server on this machine that records who reached it. */
async function listen(host: string): Promise<{ port: number; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => (hits.push(req.url ?? ''), res.end('reached\n')));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

const ownAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((i) => i && !i.internal && i.family === 'IPv4')?.address;

describe.skipIf(!HAVE_BWRAP)('the network a sandboxed command gets', () => {
  it("with the network on, is user-mode and reaches neither loopback nor this machine's own address, failing at once", async () => {
    expect(sandbox.network).toBe('user-mode');
    const servers = await Promise.all([listen('127.0.0.1'), ...(ownAddress ? [listen(ownAddress)] : [])]);
    try {
      const targets = [
        ['127.0.0.1', servers[0]!.port],
        ...(ownAddress ? [[ownAddress, servers[1]!.port]] : []),
        ['10.0.2.2', servers[0]!.port],
        ['169.254.169.254', 80],
      ] as const;
      for (const [host, port] of targets) {
        const r = await run(
          `timeout 3 bash -c 'exec 3<>/dev/tcp/${host}/${port} && printf "GET /x HTTP/1.0\\r\\n\\r\\n" >&3 && cat <&3'; echo "rc=$?"`,
          { network: true },
        );
        expect([host, r.output]).not.toEqual([host, expect.stringContaining('reached')]);
        // Refused by a route at once, not left to time out (which would end with 124).
        expect([host, r.output]).toEqual([host, expect.not.stringContaining('rc=124')]);
      }
      for (const s of servers) expect(s.hits).toEqual([]);
      const routes = await run('ip route; ip -6 route', { network: true });
      for (const range of [
        '10.0.0.0/8',
        '172.16.0.0/12',
        '192.168.0.0/16',
        '169.254.0.0/16',
        '100.64.0.0/10',
        'fc00::/7',
        'fe80::/10',
      ]) {
        expect(routes.output).toContain(`prohibit ${range}`);
      }
      expect(routes.output).toMatch(/^default via /m);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  });

  it('with the network off, has nothing but loopback', async () => {
    const r = await run('ip -o link | cut -d: -f2; ip route; echo done');
    expect(r.output.trim().split('\n').slice(1)).toEqual([' lo', 'done']);
  });
});
