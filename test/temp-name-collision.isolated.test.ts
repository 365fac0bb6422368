import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { fileWriteTool } from '../src/tools/file-write.js';
import { fails, useWorkspace, ws } from './support/file-tools.js';

/** The temp name a write picks is random; here it is forced onto a name a file already has. */
const TAKEN = '.zhixing-1-000000000000.tmp';
vi.mock('../src/tools/temp-files.js', async (original) => ({
  ...(await original<typeof import('../src/tools/temp-files.js')>()),
  tempFileName: () => TAKEN,
}));

useWorkspace();

describe('a temp name already taken', () => {
  it('file_write fails, and the file that had the name keeps its content', async () => {
    // Fresh, and pid 1 is alive: not a leftover any sweep would take.
    await writeFile(path.join(ws, TAKEN), "not the write's");
    expect(await fails(fileWriteTool, { path: 'a.txt', content: 'hello' })).toMatch(
      /^Cannot write a\.txt.*Nothing was written\.$/,
    );
    expect(await readFile(path.join(ws, TAKEN), 'utf8')).toBe("not the write's");
  });
});
