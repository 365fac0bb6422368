/** Our client against the official filesystem and memory servers. */
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { bin, harness, stdio } from '../support/mcp.js';

// Real servers start as processes: on a busy machine a test's few connects take more than the default 20 s.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const dirs: string[] = [];
const tempDir = (label: string) => {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), `zhixing-mcp-${label}-`)));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('server-filesystem', () => {
  it("reads inside its allowed folder; outside is a failed action with the server's words", async () => {
    const allowed = tempDir('fs');
    const outside = tempDir('outside');
    writeFileSync(path.join(allowed, 'note.txt'), 'inside the fence\n');
    writeFileSync(path.join(outside, 'secret.txt'), 'do not read\n');
    const h = harness([stdio('fs', bin('mcp-server-filesystem'), [allowed])]);
    h.manager.start();
    try {
      await h.until('fs', (v) => v.state === 'connected');
      const read = h.manager.get('fs')!.tools.find((n) => /read_text_file|read_file/.test(n))!;
      expect(read).toBeTruthy();
      const ok = await h.call(read, { path: path.join(allowed, 'note.txt') });
      expect(ok).toMatchObject({ ok: true });
      expect(ok.output).toContain('inside the fence');
      const no = await h.call(read, { path: path.join(outside, 'secret.txt') });
      expect(no.ok).toBe(false);
      expect(no.output).toMatch(/^Error: .*(denied|outside allowed)/i);
      expect(no.output).not.toContain('do not read');
      // A file's content is more than a typed field: 100 KB goes through.
      const big = 'z'.repeat(100_000);
      const wrote = await h.call('fs__write_file', { path: path.join(allowed, 'big.txt'), content: big });
      expect(wrote.ok).toBe(true);
      expect(readFileSync(path.join(allowed, 'big.txt'), 'utf8')).toBe(big);
      // A tool that writes is not read-only: undo keeps a snapshot around it.
      expect(h.tools.get('fs__write_file')!.changesWorkspace).toBe(true);
      expect(h.tools.get(read)!.changesWorkspace).toBe(false);
    } finally {
      await h.manager.close();
    }
  });
});

describe('server-memory', () => {
  it('creates entities and reads the graph back', async () => {
    const dir = tempDir('memory');
    const file = path.join(dir, 'memory.jsonl');
    const h = harness([stdio('memory', bin('mcp-server-memory'), [], { env: { MEMORY_FILE_PATH: file } })]);
    h.manager.start();
    try {
      await h.until('memory', (v) => v.state === 'connected');
      const created = await h.call('memory__create_entities', {
        entities: [
          { name: 'Ada', entityType: 'person', observations: ['wrote the first program'] },
          { name: '知行', entityType: 'assistant', observations: ['speaks zh and en'] },
        ],
      });
      expect(created.ok).toBe(true);
      const related = await h.call('memory__create_relations', {
        relations: [{ from: '知行', to: 'Ada', relationType: 'admires' }],
      });
      expect(related.ok).toBe(true);
      const graph = await h.call('memory__read_graph');
      expect(graph.ok).toBe(true);
      expect(graph.output).toContain('wrote the first program');
      expect(graph.output).toContain('admires');
      expect(readFileSync(file, 'utf8')).toContain('Ada');
    } finally {
      await h.manager.close();
    }
  });
});
