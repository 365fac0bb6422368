/**
 * Set-up for the shell tool's tests: a home laid out as Zhixing lays it out (config.json, .env, a
 * real database, skills, the workspace) beside a stand-in for the user's home with credentials in
 * it, all outside /tmp (the sandbox covers /tmp whole, which would hide them for the wrong reason);
 * a way to run the tool as the registry does; a canary HTTP server; and a look for processes by a
 * word in their command line (a sandbox's processes have pids of their own namespace).
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createStore } from '../../src/store/store.js';
import { createToolRegistry, type ToolResult } from '../../src/tools/registry.js';
import { createShellTool, type ShellToolDeps } from '../../src/tools/shell.js';
import type { ToolContext } from '../../src/tools/tool.js';
import type { PermissionRequest } from '../../src/contract/permission.js';

/** Where fixtures go: a folder the sandbox shows read-only, unlike /tmp, which it replaces. */
const FIXTURE_PARENT = existsSync('/var/tmp') ? '/var/tmp' : os.tmpdir();

export const CONFIG_TEXT = '{"permissions":{"shell":"allow"},"apiKey":"sk-config-file-secret-0123456789"}';
export const ENV_TEXT = 'ZHIXING_API_KEY=sk-env-file-secret-0123456789\n';
export const SSH_KEY = '-----BEGIN OPENSSH PRIVATE KEY----- fixture-private-key-material';

export interface ShellFixture {
  base: string;
  home: string;
  workspace: string;
  dbPath: string;
  userHome: string;
  cleanup(): void;
}

export function shellFixture(): ShellFixture {
  const base = mkdtempSync(path.join(FIXTURE_PARENT, 'zhixing-shell-'));
  const home = path.join(base, 'home');
  const workspace = path.join(home, 'workspace');
  const userHome = path.join(base, 'user');
  mkdirSync(workspace, { recursive: true });
  writeFileSync(path.join(home, 'config.json'), CONFIG_TEXT, { mode: 0o600 });
  writeFileSync(path.join(home, '.env'), ENV_TEXT, { mode: 0o600 });
  const dbPath = path.join(home, 'zhixing.db');
  const store = createStore(dbPath);
  store.todos.add('a row in the real database', null, Date.now());
  store.close();
  mkdirSync(path.join(home, 'skills', 'hello'), { recursive: true });
  writeFileSync(path.join(home, 'skills', 'hello', 'run.sh'), 'echo hello from a skill\n');
  mkdirSync(path.join(userHome, '.ssh'), { recursive: true });
  writeFileSync(path.join(userHome, '.ssh', 'id_ed25519'), SSH_KEY);
  mkdirSync(path.join(userHome, '.aws'));
  writeFileSync(path.join(userHome, '.aws', 'credentials'), '[default]\naws_secret_access_key = aws-fixture-secret\n');
  writeFileSync(path.join(userHome, '.netrc'), 'machine example.com login me password netrc-fixture-secret\n');
  writeFileSync(path.join(userHome, 'notes.txt'), 'an ordinary file\n');
  return { base, home, workspace, dbPath, userHome, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

/** Contents and modification time: "untouched" means both are the same. */
export function fingerprint(file: string): { text: string; mtimeMs: number } {
  return { text: readFileSync(file).toString('base64'), mtimeMs: statSync(file).mtimeMs };
}

export type Policy = (r: PermissionRequest) => 'allow' | 'deny';

export function shellCtx(
  workspace: string,
  asked: PermissionRequest[] = [],
  policy: Policy = () => 'allow',
  signal = new AbortController().signal,
): ToolContext {
  return {
    sessionId: 's1',
    turnId: 't1',
    callId: 'c1',
    workspace,
    signal,
    lang: 'en',
    progress: () => {},
    ask: async (r) => (asked.push(r), policy(r)),
  };
}

/** The shell tool behind a registry, as a turn runs it: refusals and failures come back as `ok: false`. */
export function shellRunner(fx: ShellFixture, deps: Partial<ShellToolDeps> = {}) {
  const tool = createShellTool({
    home: fx.home,
    dbPath: fx.dbPath,
    network: true,
    env: process.env,
    userHome: fx.userHome,
    sandbox: async () => ({ kind: 'none', ok: false, reason: 'not given' }),
    ...deps,
  });
  const registry = createToolRegistry([tool]);
  return (
    args: { command: string; timeout_ms?: number },
    ctx: ToolContext = shellCtx(fx.workspace),
  ): Promise<ToolResult> => registry.run({ id: 'c1', name: 'shell', arguments: JSON.stringify(args) }, ctx);
}

/** A local HTTP server that records every path it is asked for: whatever reaches it got out. */
export async function startCanary(): Promise<{ url: string; port: number; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.end('canary\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Pids of running (not zombie) processes whose command line contains `word`. */
export function processesWith(word: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(word)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat[stat.lastIndexOf(')') + 2] !== 'Z') found.push(Number(entry));
    } catch {
      // Gone while we looked.
    }
  }
  return found;
}

/** Waits until no running process has `word` in its command line, up to `ms`. */
export async function noProcessWith(word: string, ms = 4_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (processesWith(word).length === 0) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return processesWith(word).length === 0;
}

/** Whether bubblewrap runs here; where it does not, the tests that need it say why they skip. */
export function bwrapWorks(): boolean {
  try {
    execFileSync('bwrap', ['--ro-bind', '/', '/', '--unshare-pid', '--', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
