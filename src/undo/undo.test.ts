import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createStore, type Store } from '../store/store.js';
import { scanWorkspace } from './manifest.js';
import { createWorkspaceUndo, type UndoLimits } from './undo.js';

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

const DAY_MS = 86_400_000;

function setup(
  options: { limits?: Partial<UndoLimits>; maxFileBytes?: number; redact?: (text: string) => string } = {},
) {
  const root = mkdtempSync(join(tmpdir(), 'zhixing-undo-'));
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  const store: Store = createStore(join(root, 'z.db'));
  cleanups.push(
    () => store.close(),
    () => rmSync(root, { recursive: true, force: true }),
  );
  let clock = 1_000_000;
  const now = () => clock;
  const dir = join(root, 'snapshots');
  const undo = createWorkspaceUndo({ repo: store.snapshots, dir, workspace, now, ...options });
  const session = store.sessions.create(store.newId('ses'), '', clock).id;
  let n = 0;
  /** One turn: snapshot, the changes, the end state. */
  const turn = async (change: () => void, sessionId = session) => {
    const turnId = `trn_${String(++n).padStart(4, '0')}`;
    clock += 1_000;
    await undo.before(sessionId, turnId);
    change();
    clock += 1_000;
    return { turnId, changed: undo.after(turnId) };
  };
  const ws = (p: string) => join(workspace, p);
  const blobFiles = () => readdirSync(join(dir, 'blobs')).flatMap((d) => readdirSync(join(dir, 'blobs', d)));
  return { store, undo, workspace, ws, session, turn, blobFiles, advance: (ms: number) => (clock += ms) };
}

describe('workspace undo', () => {
  it('restores a changed file, removes created ones and their folders, puts deleted ones back with their mode', async () => {
    const { undo, ws, session, turn } = setup();
    writeFileSync(ws('notes.md'), 'old notes');
    writeFileSync(ws('old.txt'), 'keep me');
    chmodSync(ws('old.txt'), 0o640);
    await turn(() => {
      writeFileSync(ws('notes.md'), 'new notes');
      mkdirSync(ws('drafts'));
      writeFileSync(ws('drafts/draft.txt'), 'draft');
      unlinkSync(ws('old.txt'));
    });
    const r = undo.undo(session, 'en');
    expect(readFileSync(ws('notes.md'), 'utf8')).toBe('old notes');
    expect(readFileSync(ws('old.txt'), 'utf8')).toBe('keep me');
    expect(lstatSync(ws('old.txt')).mode & 0o777).toBe(0o640);
    expect(existsSync(ws('drafts'))).toBe(false);
    expect(r).toMatchObject({
      restored: ['notes.md'],
      putBack: ['old.txt'],
      conflicts: [],
      notCovered: [],
      failed: [],
    });
    expect(r.removed.sort()).toEqual(['drafts', 'drafts/draft.txt']);
    expect(r.message).toBe('Restored notes.md, removed drafts, put back old.txt.');
    expect(undo.undo.bind(undo, session, 'zh')).toThrow(/Nothing to undo/);
  });

  it('records symbolic links as links, never following them, and restores them', async () => {
    const { undo, ws, session, turn } = setup();
    const outside = mkdtempSync(join(tmpdir(), 'zhixing-outside-'));
    cleanups.push(() => rmSync(outside, { recursive: true, force: true }));
    writeFileSync(join(outside, 'secret.txt'), 'not ours');
    symlinkSync(outside, ws('out'));
    symlinkSync('notes.md', ws('link'));
    await turn(() => {
      unlinkSync(ws('link'));
      symlinkSync('elsewhere.md', ws('link'));
      unlinkSync(ws('out'));
    });
    const r = undo.undo(session, 'en');
    expect(readlinkSync(ws('link'))).toBe('notes.md');
    expect(readlinkSync(ws('out'))).toBe(outside);
    expect(r.restored).toEqual(['link']);
    expect(r.putBack).toEqual(['out']);
  });

  it('never writes through a folder swapped for a link to outside the workspace since the turn', async () => {
    const { undo, ws, session, turn } = setup();
    const outside = mkdtempSync(join(tmpdir(), 'zhixing-outside-'));
    cleanups.push(() => rmSync(outside, { recursive: true, force: true }));
    mkdirSync(ws('docs'));
    writeFileSync(ws('docs/a.txt'), 'v1');
    await turn(() => writeFileSync(ws('docs/a.txt'), 'v2'));
    // Someone moves the folder out and links it back: the same file, now outside.
    rmSync(ws('docs'), { recursive: true });
    writeFileSync(join(outside, 'a.txt'), 'v2');
    symlinkSync(outside, ws('docs'));
    const r = undo.undo(session, 'en');
    expect(r.conflicts).toContain('docs/a.txt');
    expect(readFileSync(join(outside, 'a.txt'), 'utf8')).toBe('v2');
  });

  it('restores a mode change alone', async () => {
    const { undo, ws, session, turn } = setup();
    writeFileSync(ws('run.sh'), 'echo hi', { mode: 0o644 });
    chmodSync(ws('run.sh'), 0o644);
    await turn(() => chmodSync(ws('run.sh'), 0o755));
    expect(undo.undo(session, 'en').restored).toEqual(['run.sh']);
    expect(lstatSync(ws('run.sh')).mode & 0o777).toBe(0o644);
  });

  it('keeps a file changed since the turn, and says so', async () => {
    const { undo, ws, session, turn } = setup();
    writeFileSync(ws('a.txt'), 'a1');
    writeFileSync(ws('b.txt'), 'b1');
    await turn(() => {
      writeFileSync(ws('a.txt'), 'a2');
      writeFileSync(ws('b.txt'), 'b2');
    });
    writeFileSync(ws('b.txt'), 'the user edited this');
    const r = undo.undo(session, 'en');
    expect(readFileSync(ws('a.txt'), 'utf8')).toBe('a1');
    expect(readFileSync(ws('b.txt'), 'utf8')).toBe('the user edited this');
    expect(r.conflicts).toEqual(['b.txt']);
    expect(r.message).toBe('Restored a.txt. Kept b.txt as it is: changed since.');
    expect(undo.undo.bind(undo, session, 'en')).toThrow(/Nothing to undo/);
  });

  it('goes one turn further back each time, skipping turns that changed nothing', async () => {
    const { undo, ws, session, turn } = setup();
    writeFileSync(ws('f.txt'), 'v1');
    await turn(() => writeFileSync(ws('f.txt'), 'v2'));
    expect((await turn(() => {})).changed).toBe(false);
    await turn(() => writeFileSync(ws('f.txt'), 'v3'));
    expect(undo.states(session).map((s) => s.state)).toEqual(['undoable', 'undoable']);
    undo.undo(session, 'en');
    expect(readFileSync(ws('f.txt'), 'utf8')).toBe('v2');
    undo.undo(session, 'zh');
    expect(readFileSync(ws('f.txt'), 'utf8')).toBe('v1');
    expect(undo.states(session).map((s) => s.state)).toEqual(['undone', 'undone']);
  });

  it('writes each content once', async () => {
    const { ws, turn, blobFiles } = setup();
    writeFileSync(ws('a.txt'), 'same');
    writeFileSync(ws('b.txt'), 'same');
    writeFileSync(ws('c.txt'), 'other');
    await turn(() => writeFileSync(ws('d.txt'), 'new'));
    expect(blobFiles()).toHaveLength(2);
    await turn(() => writeFileSync(ws('c.txt'), 'changed'));
    // d.txt's bytes were first copied by the second snapshot; nothing is copied twice.
    expect(blobFiles()).toHaveLength(3);
  });

  it('lets other work run while it snapshots a big tree', async () => {
    const { undo, ws, session } = setup();
    for (let i = 0; i < 1_200; i++) writeFileSync(ws(`f${i}.txt`), String(i));
    let finished = false;
    let ranDuring = false;
    const snapshot = undo.before(session, 'trn_big').then(() => (finished = true));
    setImmediate(() => (ranDuring = !finished));
    await snapshot;
    expect(ranDuring).toBe(true);
  });

  it('reuses the hash of a file whose size, mtime, inode and ctime did not change, without reading it', async () => {
    const { workspace, ws } = setup();
    writeFileSync(ws('a.txt'), 'aaa');
    writeFileSync(ws('b.txt'), 'bbb');
    const first = scanWorkspace(workspace, { maxFileBytes: 1e6, maxEntries: 1e6 }).manifest;
    // A hash no file has: only a reuse can put it in the next manifest.
    const previous = {
      ...first,
      'a.txt': { ...first['a.txt']!, hash: 'f'.repeat(64) },
      'b.txt': { ...first['b.txt']!, hash: 'e'.repeat(64), mtimeMs: 1 },
    };
    const second = scanWorkspace(workspace, { previous, maxFileBytes: 1e6, maxEntries: 1e6 }).manifest;
    expect(second['a.txt']!.hash).toBe('f'.repeat(64));
    expect(second['b.txt']!.hash).toBe(first['b.txt']!.hash);
  });

  it('lists files over the size cap and special files as not covered, and undo says so', async () => {
    const { undo, ws, session, turn, store } = setup({ maxFileBytes: 10 });
    writeFileSync(ws('big.bin'), 'x'.repeat(100));
    const { turnId } = await turn(() => writeFileSync(ws('big.bin'), 'y'.repeat(100)));
    expect(JSON.parse(store.snapshots.get(turnId)!.notCovered)).toEqual([{ path: 'big.bin', reason: 'too_large' }]);
    const r = undo.undo(session, 'en');
    expect(r.notCovered).toEqual(['big.bin']);
    expect(r.message).toMatch(/Could not restore big\.bin: not in the snapshot/);
    expect(readFileSync(ws('big.bin'), 'utf8')).toBe('y'.repeat(100));
  });

  it('reads no more than maxBytes in one snapshot; what is past it is not covered', async () => {
    const { undo, ws, session, turn } = setup({ limits: { maxBytes: 150 } });
    writeFileSync(ws('a.txt'), 'a'.repeat(100));
    writeFileSync(ws('b.txt'), 'b'.repeat(100));
    await turn(() => {
      writeFileSync(ws('a.txt'), 'changed');
      writeFileSync(ws('b.txt'), 'changed');
    });
    const r = undo.undo(session, 'en');
    expect(r.restored.length + r.notCovered.length).toBe(2);
    expect(r.notCovered).toHaveLength(1);
  });

  it('keeps the last N changing turns per session and prunes older ones, with their copies', async () => {
    const { undo, ws, session, turn, blobFiles } = setup({ limits: { maxTurns: 2 } });
    for (let i = 1; i <= 4; i++) await turn(() => writeFileSync(ws('f.txt'), `v${i}`));
    expect(undo.states(session).map((s) => s.state)).toEqual(['undoable', 'undoable', 'expired', 'expired']);
    // v1 (first turn's "before" had no f.txt) and v2 are gone; v2 and v3 are what the kept turns need.
    expect(blobFiles()).toHaveLength(2);
    undo.undo(session, 'en');
    undo.undo(session, 'en');
    expect(readFileSync(ws('f.txt'), 'utf8')).toBe('v2');
    expect(() => undo.undo(session, 'en')).toThrow(/too old to undo/);
  });

  it('prunes snapshots older than maxDays', async () => {
    const { undo, ws, session, turn, advance } = setup({ limits: { maxDays: 7 } });
    await turn(() => writeFileSync(ws('f.txt'), 'v1'));
    advance(8 * DAY_MS);
    await turn(() => writeFileSync(ws('g.txt'), 'v1'));
    expect(undo.states(session).map((s) => s.state)).toEqual(['undoable', 'expired']);
  });

  it('prunes the oldest snapshots until the copies fit in maxBytes', async () => {
    const { undo, ws, session, turn, blobFiles } = setup({ limits: { maxBytes: 2_500 } });
    writeFileSync(ws('f.txt'), 'a'.repeat(1_000));
    await turn(() => writeFileSync(ws('f.txt'), 'b'.repeat(1_000)));
    await turn(() => writeFileSync(ws('f.txt'), 'c'.repeat(1_000)));
    await turn(() => writeFileSync(ws('f.txt'), 'd'.repeat(1_000)));
    expect(undo.states(session).map((s) => s.state)).toEqual(['undoable', 'undoable', 'expired']);
    expect(blobFiles()).toHaveLength(2);
  });

  it('removes copies nothing needs when a session is deleted', async () => {
    const { undo, ws, session, turn, blobFiles, store } = setup();
    writeFileSync(ws('f.txt'), 'v1');
    await turn(() => writeFileSync(ws('f.txt'), 'v2'));
    expect(blobFiles()).toHaveLength(1);
    store.sessions.delete(session);
    undo.tidy();
    expect(blobFiles()).toHaveLength(0);
  });

  it('undoes a turn that never recorded its end, taking what is on disk as what it left', async () => {
    const { undo, ws, session } = setup();
    writeFileSync(ws('f.txt'), 'v1');
    await undo.before(session, 'trn_crashed');
    writeFileSync(ws('f.txt'), 'v2');
    writeFileSync(ws('g.txt'), 'new');
    const r = undo.undo(session, 'en');
    expect(r).toMatchObject({ restored: ['f.txt'], removed: ['g.txt'] });
    expect(readFileSync(ws('f.txt'), 'utf8')).toBe('v1');
  });

  it('never stores a name that holds the key: such files stay out of the snapshot and undo leaves them', async () => {
    const KEY = 'sk-Secret123';
    const redact = (text: string) => text.replaceAll(KEY, '[key]');
    const { store, undo, workspace, ws, session, turn } = setup({ redact });
    await turn(() => {
      writeFileSync(ws('plain.txt'), 'plain');
      mkdirSync(ws(KEY));
      writeFileSync(ws(`${KEY}/inside.txt`), 'x');
      symlinkSync(`/tmp/${KEY}`, ws('link'));
    });
    const stored = store.snapshots.latestManifest(workspace);
    expect(stored).toContain('plain.txt');
    expect(stored).not.toContain(KEY);
    const r = undo.undo(session, 'en');
    expect(r.removed).toEqual(['plain.txt']);
    expect(existsSync(ws(`${KEY}/inside.txt`))).toBe(true);
    expect(existsSync(ws('plain.txt'))).toBe(false);
  });
});

describe('a folder the turn swapped for a link', () => {
  it('is put back with what was in it, and nothing is written through the link', async () => {
    const { undo, ws, session, turn } = setup();
    const elsewhere = mkdtempSync(join(tmpdir(), 'zhixing-elsewhere-'));
    cleanups.push(() => rmSync(elsewhere, { recursive: true, force: true }));
    writeFileSync(join(elsewhere, 'f'), 'not ours');
    mkdirSync(ws('d'));
    writeFileSync(ws('d/f'), 'ours');
    await turn(() => {
      rmSync(ws('d'), { recursive: true });
      symlinkSync(elsewhere, ws('d'));
    });
    const r = undo.undo(session, 'en');
    expect(r.conflicts).toEqual([]);
    expect(lstatSync(ws('d')).isDirectory()).toBe(true);
    expect(readFileSync(ws('d/f'), 'utf8')).toBe('ours');
    expect(readFileSync(join(elsewhere, 'f'), 'utf8')).toBe('not ours');
  });
});
