/**
 * Shared set-up for the file tools' tests: a fresh workspace (with a look-alike sibling folder and a
 * secret beside it) per test, a tool context whose permission asks are recorded, and helpers that run
 * a tool the way the registry does.
 */
import { mkdir, mkdtemp, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import type { Lang } from '../../src/i18n.js';
import { outputText, type Tool, type ToolContext } from '../../src/tools/tool.js';
import type { PermissionRequest } from '../../src/contract/permission.js';

/** Live bindings: each test gets its own folders. */
export let base: string;
export let ws: string;
export let asked: PermissionRequest[];

/** Makes the folders before each test of the calling file and removes them after. */
export function useWorkspace(): void {
  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'zhixing-files-')));
    ws = path.join(base, 'workspace');
    await mkdir(ws);
    await mkdir(path.join(base, 'workspace-evil'));
    await writeFile(path.join(base, 'workspace-evil', 'x'), 'evil');
    await writeFile(path.join(base, 'secret.txt'), 'secret');
    asked = [];
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });
}

export type Policy = (r: PermissionRequest) => 'allow' | 'deny';
export const defaultPolicy: Policy = (r) => (r.insideSandbox ? 'allow' : 'deny');

export function ctx(lang: Lang = 'en', policy: Policy = defaultPolicy): ToolContext {
  return {
    sessionId: 's1',
    workspace: ws,
    signal: new AbortController().signal,
    lang,
    progress: () => {},
    turnId: 't1',
    callId: 'c1',
    ask: async (r) => {
      asked.push(r);
      return policy(r);
    },
  };
}

/** Runs a tool the way the registry does: parse the raw input, then execute. */
export async function run(tool: Tool, input: unknown, c: ToolContext = ctx()): Promise<string> {
  const args = await tool.check(input);
  if (!args.ok) throw new Error(args.message);
  return outputText(await tool.execute(args.value, c));
}

export async function fails(tool: Tool, input: unknown, c: ToolContext = ctx()): Promise<string> {
  const err = await run(tool, input, c).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toMatchObject({ name: 'ToolError' });
  return (err as Error).message;
}

/** Every file under `dir`, recursively, as sorted relative paths: "nothing else was written". */
export async function tree(dir: string): Promise<string[]> {
  return ((await readdir(dir, { recursive: true })) as string[]).sort();
}
