import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { programsDeniedOutright } from '../src/shell/denied-programs.js';
import { detectSandbox, findProgram, type SandboxInfo } from '../src/shell/sandbox.js';
import {
  bwrapWorks,
  CONFIG_TEXT,
  ENV_TEXT,
  fingerprint,
  noProcessWith,
  processesWith,
  shellCtx,
  shellFixture,
  shellRunner,
  SSH_KEY,
  startCanary,
  type ShellFixture,
} from './support/shell.js';

// CI installs bubblewrap (.ci/run): only a machine without it skips, and says so.
const HAVE_BWRAP = bwrapWorks();
if (!HAVE_BWRAP)
  console.warn(
    'shell containment tests skipped: bubblewrap (bwrap) does not run on this machine (apt-get install bubblewrap)',
  );

let fx: ShellFixture;
let canary: Awaited<ReturnType<typeof startCanary>>;
let sandbox: SandboxInfo;
let sandboxOffline: SandboxInfo;
beforeAll(async () => {
  fx = shellFixture();
  canary = await startCanary();
  sandbox = await detectSandbox({ searchPath: process.env.PATH ?? '', network: true });
  sandboxOffline = await detectSandbox({ searchPath: process.env.PATH ?? '', network: false });
});
afterAll(async () => {
  fx.cleanup();
  await canary.close();
});

/**
 * The sandbox must hold where the command-line reader misses something, so these commands go past a
 * reader that sees nothing wrong in any line: what stops them here is the sandbox alone.
 */
const blindReader = async (command: string) => ({ ok: true as const, parts: [{ text: command }] });
const run = (command: string, deps: Parameters<typeof shellRunner>[1] = {}, timeout_ms?: number) =>
  shellRunner(fx, { sandbox: async () => sandbox, analyze: blindReader, ...deps })({
    command,
    ...(timeout_ms ? { timeout_ms } : {}),
  });

/** A TCP listener on `host` that counts the connections made to it. */
async function connectionCanary(
  host: string,
): Promise<{ port: number; connections(): number; close(): Promise<void> }> {
  let count = 0;
  const server = createServer((socket) => {
    count++;
    socket.end('canary\n');
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => count,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** This host's IPv6 link-local addresses, without their scope. */
const linkLocals = () =>
  Object.values(os.networkInterfaces()).flatMap((list) =>
    (list ?? [])
      .filter((i) => i.family === 'IPv6' && i.address.startsWith('fe80'))
      .map((i) => i.address.split('%')[0]!),
  );

describe.skipIf(!HAVE_BWRAP)('shell commands in bubblewrap', () => {
  it('finds bubblewrap working here', () => {
    expect(sandbox).toMatchObject({ kind: 'bwrap', ok: true });
    expect(sandboxOffline).toMatchObject({ kind: 'bwrap', ok: true });
  });

  it('can write the workspace and nothing outside it', async () => {
    const r = await run(
      `echo made > made.txt && cat made.txt; echo home > ~/in-home.txt && cat ~/in-home.txt; touch /etc/zhixing-x; echo x > ${os.homedir()}/zhixing-x; echo x > ${fx.base}/outside.txt; echo x > ${fx.userHome}/notes.txt`,
    );
    expect(r.ok).toBe(true);
    expect(readFileSync(path.join(fx.workspace, 'made.txt'), 'utf8')).toBe('made\n');
    // HOME is an empty folder of the command's own, at the user's home's path: writable, and gone afterwards.
    expect(r.output).toContain('home\n');
    expect(existsSync(path.join(fx.userHome, 'in-home.txt'))).toBe(false);
    expect(r.output.match(/Read-only file system/g)).toHaveLength(3);
    expect(existsSync('/etc/zhixing-x')).toBe(false);
    expect(existsSync(path.join(os.homedir(), 'zhixing-x'))).toBe(false);
    expect(existsSync(path.join(fx.base, 'outside.txt'))).toBe(false);
    expect(readFileSync(path.join(fx.userHome, 'notes.txt'), 'utf8')).toBe('an ordinary file\n');
  });

  it("keeps the shells' startup files in its home empty and unwritable, so a login shell or bash over SSH runs nothing planted", async () => {
    const r = await run(
      "printf 'echo PLANTED\\n' > ~/.profile; printf 'echo PLANTED\\n' >> ~/.bashrc; rm -f ~/.bash_profile; exec -l bash -c 'SSH_CLIENT=1 SHLVL=0 bash -c true; echo done'",
    );
    expect(r.output).toContain('done');
    expect(r.output).not.toMatch(/^PLANTED$/m);
    expect(
      r.output.match(/Permission denied|Read-only file system|Device or resource busy/g)!.length,
      r.output,
    ).toBeGreaterThanOrEqual(3);
  });

  it('gives each command a private /tmp that is gone afterwards', async () => {
    const name = `zhixing-private-${process.pid}-${Date.now()}`;
    const r = await run(`echo inside > /tmp/${name} && cat /tmp/${name} && ls -A /tmp`);
    const [head, inside, ...listed] = r.output.trimEnd().split('\n');
    expect([head, inside]).toEqual([`Exit code 0 (${r.output.match(/\((\d+\.\d) s\)/)![1]} s)`, 'inside']);
    // Besides its own file, /tmp shows only the way to folders the sandbox shows on purpose (a PATH
    // folder or the installation under /tmp, as when the project itself was cloned there).
    const shownUnderTmp = new Set(
      (process.env.PATH ?? '')
        .split(':')
        .concat(process.cwd())
        .filter((d) => d.startsWith('/tmp/'))
        .map((d) => d.split('/')[2]!),
    );
    expect(listed.filter((n) => n !== name && !shownUnderTmp.has(n))).toEqual([]);
    expect(listed).toContain(name);
    expect(existsSync(`/tmp/${name}`)).toBe(false);
    const again = await run(`ls -A /tmp; cat /tmp/${name}`);
    expect(again.output).toContain('No such file or directory');
  });

  it('cannot read or change config.json, .env or the database, whatever it tries', async () => {
    const files = ['config.json', '.env', 'zhixing.db'].map((f) => path.join(fx.home, f));
    const before = files.map(fingerprint);
    const h = fx.home;
    const r = await run(
      `cat ${h}/config.json ${h}/.env; head -c 64 ${h}/zhixing.db; ls -A ${h}; echo x >> ${h}/config.json; : > ${h}/.env; ` +
        `rm -f ${h}/zhixing.db; sqlite3 ${h}/zhixing.db 'delete from todos' 2>&1; ln ${h}/config.json ./link.json; cp ${h}/config.json ./copy.json`,
    );
    expect(r.ok).toBe(true);
    expect(files.map(fingerprint)).toEqual(before);
    expect(r.output).not.toContain('sk-config-file-secret');
    expect(r.output).not.toContain('sk-env-file-secret');
    expect(r.output).not.toContain('SQLite format');
    expect(existsSync(path.join(fx.workspace, 'copy.json'))).toBe(false);
    expect(readFileSync(files[0]!, 'utf8')).toBe(CONFIG_TEXT);
    expect(readFileSync(files[1]!, 'utf8')).toBe(ENV_TEXT);
  });

  it("shows skills read-only, and none of the user's home: keys and ordinary files alike", async () => {
    const u = fx.userHome;
    const r = await run(
      `bash ${fx.home}/skills/hello/run.sh; touch ${fx.home}/skills/new; cat ${u}/.ssh/id_ed25519 ${u}/.aws/credentials ${u}/.netrc; ls -A ${u}/.ssh; cat ${u}/notes.txt`,
    );
    expect(r.output).toContain('hello from a skill\n');
    expect(r.output).toMatch(/touch: cannot touch .*skills\/new': Read-only file system/);
    expect(r.output).not.toContain(SSH_KEY);
    expect(r.output).not.toContain('fixture-secret');
    expect(r.output).not.toContain('an ordinary file');
  });

  it('passes no key, token or password into the environment, by name or by value', async () => {
    const env = {
      ...process.env,
      OPENAI_API_KEY: 'sk-parent-openai-0123456789abcd',
      ZHIXING_API_KEY: 'sk-parent-zhixing-0123456789ab',
      MY_SERVICE_TOKEN: 'parent-service-token',
      DB_PASSWORD: 'parent-db-password',
      DATABASE_URL: 'postgres://u:parent-url-pw@db/app',
      HARMLESS_SETTING: 'kept',
    };
    const r = await run('env', { env });
    expect(r.output).toContain('HARMLESS_SETTING=kept');
    expect(r.output).toContain(`HOME=${fx.userHome}\n`);
    expect(r.output).not.toMatch(/^[A-Z_]*(_KEY|_TOKEN|PASSWORD[A-Z_]*)=/m);
    expect(r.output).not.toMatch(/parent-|sk-parent/);
  });

  it('reaches no local server, with the network on or off', async () => {
    const get = (p: string) =>
      `exec 3<>/dev/tcp/127.0.0.1/${canary.port} && printf 'GET ${p} HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3`;
    const on = await run(get('/network-on'), { network: true });
    expect(on.output).toMatch(/^Exit code 1: the command failed/);
    const off = await run(get('/network-off'), { network: false, sandbox: async () => sandboxOffline });
    expect(off.output).toMatch(/^Exit code 1: the command failed/);
    expect(canary.hits).toEqual([]);
  });

  const curl = findProgram('curl', process.env.PATH ?? '');
  it.skipIf(!curl)(
    'reaches no local server past the routes either: a socket bound to an interface, a scoped link-local address',
    async () => {
      // Listening on every address of the host, both families, counting connections: a request may
      // arrive while its answer is lost on the way back, and arriving is the break.
      const wide = await connectionCanary('::');
      const narrow = await connectionCanary('127.0.0.1');
      try {
        // The sandbox's own interfaces, its loopback aside (no /sys there: ip says).
        const links = `for n in $(ip -o link | awk -F': ' '$2 != "lo" { print $2 }'); do`;
        const gets = [
          // Bound to the namespace's interface, the kernel takes a walled-off address as on the link.
          `${links} curl -s -m 5 --interface "$n" http://127.0.0.1:${wide.port}/bound; curl -s -m 5 --interface "$n" http://127.0.0.1:${narrow.port}/bound-v4; done`,
          // The gateway's and the host's link-local addresses, with the interface as their scope.
          `${links} for a in $(ip -6 route show default | sed -n 's/.*via \\([^ ]*\\).*/\\1/p') ${linkLocals().join(' ')}; do curl -s -m 5 -g "http://[$a%$n]:${wide.port}/scoped"; done; done`,
        ];
        for (const command of gets) {
          const r = await run(command, { network: true });
          expect(r.output).not.toContain('canary');
        }
        expect(wide.connections()).toBe(0);
        expect(narrow.connections()).toBe(0);
      } finally {
        await wide.close();
        await narrow.close();
      }
    },
  );

  it.skipIf(!curl)('a masked program runs under no spelling, not even from a script', async () => {
    // No local server is reachable any more: what curl says of itself shows whether it ran.
    const control = await run('curl --version');
    expect(control.output).toContain('libcurl');
    const spellings = [
      'curl --version',
      `${curl} --version`,
      'command curl --version',
      'env curl --version',
      '$(echo cu)rl --version',
      '/usr/bin/../bin/curl --version',
      `cp ${curl} ./c && ./c --version`,
      `python3 -c "import subprocess; subprocess.run(['curl', '--version'])"`,
    ];
    // Even were every spelling allowed by the rules (a parser that missed them), the sandbox has no curl to run.
    const maskPrograms = programsDeniedOutright({ 'curl *': 'deny', '*': 'allow' });
    expect(maskPrograms).toEqual(['curl']);
    for (const command of spellings)
      expect((await run(command, { maskPrograms: () => maskPrograms })).output).not.toContain('libcurl');
  });

  describe('a PATH folder in the home that the command could make', () => {
    const local = () => path.join(fx.userHome, '.local');
    const env = () => ({ ...process.env, PATH: `${local()}/bin:${process.env.PATH ?? ''}` });
    // A program of the line's own, named like an installed one: it leaves a file behind when it runs.
    const plant =
      "mkdir -p ~/.local/bin && printf '#!/bin/sh\\necho planted ls; touch planted-ran\\n' > ~/.local/bin/ls && chmod +x ~/.local/bin/ls";
    afterEach(() => {
      for (const made of [local(), path.join(fx.workspace, 'planted-ran')])
        rmSync(made, { recursive: true, force: true });
    });

    it('runs the real ls when the line makes ~/.local/bin/ls first and ~/.local/bin is missing here', async () => {
      writeFileSync(path.join(fx.workspace, 'listed.txt'), '');
      const r = await run(`${plant} && ls`, { env: env() });
      expect(r.output).toContain('listed.txt');
      expect(r.output).not.toContain('planted ls');
      expect(existsSync(path.join(fx.workspace, 'planted-ran'))).toBe(false);
    });

    it('runs the real ls when ~/.local/bin exists here and the line moves it aside to make its own', async () => {
      mkdirSync(path.join(local(), 'bin'), { recursive: true });
      writeFileSync(path.join(fx.workspace, 'listed.txt'), '');
      const r = await run(`mv ~/.local ~/.aside; ${plant}; ls`, { env: env() });
      expect(r.output).toContain('listed.txt');
      expect(r.output).not.toContain('planted ls');
      expect(existsSync(path.join(fx.workspace, 'planted-ran'))).toBe(false);
    });

    it('gives the reader the very PATH bash looks in', async () => {
      mkdirSync(path.join(local(), 'bin'), { recursive: true });
      const seen: string[] = [];
      const r = await run('printf "%s\\n" "$PATH"', {
        env: { ...env(), PATH: `.::bin:${fx.workspace}:/tmp:${env().PATH}` },
        analyze: async (command, options) => (seen.push(options.path), blindReader(command)),
      });
      const bashPath = r.output.split('\n')[1];
      expect(seen).toEqual([bashPath]);
      expect(bashPath!.split(':')).not.toContain(`${fx.workspace}`);
      expect(bashPath!.split(':').every((d) => path.isAbsolute(d) && !d.startsWith('/tmp'))).toBe(true);
    });
  });

  it('on timeout ends the command and what it started in the background', async () => {
    const marker = `98${process.pid % 100}.${Date.now() % 1000}1`;
    const r = await run(`sleep ${marker} & sleep ${marker}; echo never`, {}, 1_000);
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(
      /^Error: The command timed out after 1\.0 s; it and every process it started, background ones included, were ended\./,
    );
    expect(await noProcessWith(`sleep\0${marker}`)).toBe(true);
  });

  it('on a stop ends the command and what it started in the background', async () => {
    const marker = `97${process.pid % 100}.${Date.now() % 1000}2`;
    const controller = new AbortController();
    const call = shellRunner(fx, { sandbox: async () => sandbox })(
      { command: `sleep ${marker} & sleep ${marker}` },
      shellCtx(fx.workspace, [], () => 'allow', controller.signal),
    );
    while (processesWith(`sleep\0${marker}`).length < 2) await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    const r = await call;
    expect(r.ok).toBe(false);
    expect(r.output).toContain('every process it started, background ones included, were ended');
    expect(await noProcessWith(`sleep\0${marker}`)).toBe(true);
  });

  it('runs in a workspace outside the home as well, the home still hidden', async () => {
    const outside = path.join(fx.base, 'project');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(outside);
    const r = await shellRunner(fx, { sandbox: async () => sandbox })(
      { command: `pwd; touch here.txt; ls -A ${fx.home}` },
      shellCtx(outside),
    );
    expect(r.output).toContain(`${outside}\n`);
    expect(existsSync(path.join(outside, 'here.txt'))).toBe(true);
    expect(r.output).not.toContain('config.json');
  });
});
