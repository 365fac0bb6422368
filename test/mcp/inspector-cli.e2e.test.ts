import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, REPO_ROOT } from '../support/cli.js';
import { useTempHomes } from '../support/temp-home.js';
import { builtinNames } from '../support/mcp-served-tools.js';

const INSPECTOR = join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'inspector-cli', 'build', 'index.js');
const home = useTempHomes();

/**
 * The official Inspector's CLI against `zhixing mcp serve`. It looks for a package.json in the folder
 * above the one it runs in, so it runs in a folder of the home with one there; it exits 0 even when
 * the tool's result is an error, so the result is read, not the exit code.
 */
function inspect(args: string[]): Promise<{ code: number | null; json: any; stderr: string; home: string }> {
  const h = home();
  const cwd = join(h.home, 'inspector');
  mkdirSync(cwd);
  writeFileSync(join(h.home, 'package.json'), '{}');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [INSPECTOR, process.execPath, BIN, 'mcp', 'serve', ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '', ZHIXING_HOME: h.home, ZHIXING_OFFLINE: '1' },
      timeout: 60_000,
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        resolve({ code, json: JSON.parse(out), stderr: err, home: h.home });
      } catch {
        reject(new Error(`inspector-cli printed no JSON (exit ${code}): ${out.slice(0, 500)} ${err.slice(0, 500)}`));
      }
    });
  });
}

describe('@modelcontextprotocol/inspector-cli against zhixing mcp serve', () => {
  it('lists the tools', async () => {
    const r = await inspect(['--method', 'tools/list']);
    expect(r.code).toBe(0);
    expect(r.json.tools.map((t: { name: string }) => t.name)).toEqual([...(await builtinNames()), 'chat']);
    expect(r.json.tools[0].annotations).toMatchObject({ readOnlyHint: true });
  });

  it('calls calculator', async () => {
    const r = await inspect([
      '--method',
      'tools/call',
      '--tool-name',
      'calculator',
      '--tool-arg',
      'expression=(3+5)*2',
    ]);
    expect(r.code).toBe(0);
    expect(r.json.content).toEqual([{ type: 'text', text: '16' }]);
    expect(r.json.isError).toBeUndefined();
  });

  it('gets a failed call as an isError result', async () => {
    const r = await inspect(['--method', 'tools/call', '--tool-name', 'file_read', '--tool-arg', 'path=missing.txt']);
    expect(r.json.isError).toBe(true);
    expect(r.json.content[0].text).toMatch(/^Error: .*missing\.txt/);
  });

  it('writes a file through file_write', async () => {
    const r = await inspect([
      '--method',
      'tools/call',
      '--tool-name',
      'file_write',
      '--tool-arg',
      'path=from-inspector.txt',
      'content=hello',
    ]);
    expect(r.json.isError).toBeUndefined();
    expect(readFileSync(join(r.home, 'workspace', 'from-inspector.txt'), 'utf8')).toBe('hello');
  });
});
