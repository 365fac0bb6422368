import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/cli.js';

/** config.json changed by several processes at once, through the built writer (as `zhixing mcp add` runs it). */
const dir = mkdtempSync(join(tmpdir(), 'zhixing-config-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('updateConfigKey across processes', () => {
  it('many processes adding to the same key at once all land, and the file stays valid JSON', async () => {
    const path = join(dir, 'config.json');
    writeFileSync(path, JSON.stringify({ model: 'm' }));
    const writer = join(REPO_ROOT, 'dist', 'config', 'config-writer.js');
    // Each process adds 150 entries one write at a time; without the lock, read-modify-write races lose some.
    // They all start writing at the same moment, after each has loaded.
    const start = Date.now() + 1_500;
    const script = `import { updateConfigKey } from ${JSON.stringify(writer)};
      while (Date.now() < ${start});
      for (let i = 0; i < 150; i++) updateConfigKey(${JSON.stringify(path)}, 'mcpServers', (cur) => ({ ...(cur ?? {}), ['p' + process.argv[1] + '_' + i]: { command: 'x' } }));`;
    const runs = Array.from(
      { length: 4 },
      (_, n) =>
        new Promise<number>((resolve) => {
          const child = spawn(process.execPath, ['--input-type=module', '-e', script, String(n)], { stdio: 'inherit' });
          child.on('exit', (code) => resolve(code ?? 1));
        }),
    );
    expect(await Promise.all(runs)).toEqual([0, 0, 0, 0]);
    const saved = JSON.parse(readFileSync(path, 'utf8'));
    expect(saved.model).toBe('m');
    expect(Object.keys(saved.mcpServers)).toHaveLength(600);
    expect(readdirSync(dir)).toEqual(['config.json']);
  }, 60_000);
});
