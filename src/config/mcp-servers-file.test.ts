import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { updateConfigKey } from './config-writer.js';
import { readMcpServers } from './mcp-settings.js';
import { createMcpServersSaver } from './mcp-servers-file.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
function configFile(content: object): string {
  const dir = mkdtempSync(join(tmpdir(), 'zhixing-mcp-saver-'));
  dirs.push(dir);
  const path = join(dir, 'config.json');
  writeFileSync(path, JSON.stringify(content));
  return path;
}
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

describe('saving mcpServers from a running process', () => {
  it('writes only what it changed: a server added meanwhile by another process survives, an untouched entry keeps its spelling', () => {
    const path = configFile({
      model: 'm',
      mcpServers: { a: { command: 'a', disabled: true, note: 'mine' }, b: { command: 'b' } },
    });
    const servers = readMcpServers(read(path).mcpServers, path, []);
    const save = createMcpServersSaver(path, servers);
    // Another terminal: zhixing mcp add c.
    updateConfigKey(path, 'mcpServers', (cur) => ({ ...(cur as object), c: { command: 'c' } }));
    // This process turns b off: the whole set it knows, as the manager gives it.
    save({ a: { command: 'a', enabled: false }, b: { command: 'b', enabled: false } });
    expect(read(path)).toEqual({
      model: 'm',
      mcpServers: {
        a: { command: 'a', disabled: true, note: 'mine' },
        b: { command: 'b', enabled: false },
        c: { command: 'c' },
      },
    });
    // Then removes a and adds d.
    save({ b: { command: 'b', enabled: false }, d: { url: 'http://h/mcp' } });
    expect(read(path).mcpServers).toEqual({
      b: { command: 'b', enabled: false },
      c: { command: 'c' },
      d: { url: 'http://h/mcp' },
    });
  });

  it('a server removed elsewhere stays removed unless this process changes it', () => {
    const path = configFile({ mcpServers: { a: { command: 'a' }, b: { command: 'b' } } });
    const save = createMcpServersSaver(path, readMcpServers(read(path).mcpServers, path, []));
    updateConfigKey(path, 'mcpServers', () => ({ b: { command: 'b' } }));
    save({ a: { command: 'a' }, b: { command: 'b', timeout_ms: 5 } });
    expect(read(path).mcpServers).toEqual({ b: { command: 'b', timeout_ms: 5 } });
  });
});
