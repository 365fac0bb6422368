import { spawn, type ChildProcess } from 'node:child_process';
import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { processStartTime } from '../process-alive.js';
import type { LockRow } from '../store/locks-repo.js';
import { createStore, type Store } from '../store/store.js';
import { createSessionLocks } from './session-lock.js';

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function storeWithSession(): { store: Store; sessionId: string } {
  const store = createStore(':memory:');
  cleanups.push(() => store.close());
  const sessionId = store.sessions.create('ses_test', '', 0).id;
  return { store, sessionId };
}

/** A real process that stays alive until the test ends. */
function sleeper(): ChildProcess {
  const child = spawn('sleep', ['60']);
  cleanups.push(() => child.kill('SIGKILL'));
  return child;
}

const HOUR_MS = 3_600_000;
const held = (sessionId: string, pid: number, started: string, heartbeatAt: number): LockRow => ({
  sessionId,
  owner: `${hostname()}:${pid}:${started}:abcd`,
  pid,
  acquiredAt: heartbeatAt,
  heartbeatAt,
});

describe('session locks across processes', () => {
  it('never takes over from a live process, however long its heartbeat has been silent (a stopped process)', async () => {
    const { store, sessionId } = storeWithSession();
    const child = sleeper();
    child.kill('SIGSTOP');
    const started = processStartTime(child.pid!)!;
    expect(started).toMatch(/^\d+$/);
    store.locks.insert(held(sessionId, child.pid!, started, Date.now() - HOUR_MS));
    const locks = createSessionLocks({ locks: store.locks });
    expect(await locks.acquire(sessionId, { waitMs: 0 })).toBeUndefined();
    expect(locks.holder(sessionId)).toBe(child.pid);
  });

  it('takes over at once from a dead process, and from a reused pid (another start time)', async () => {
    const { store, sessionId } = storeWithSession();
    const child = sleeper();
    const started = processStartTime(child.pid!)!;
    // The same pid with a start time of another process: the holder is gone, the pid was reused.
    store.locks.insert(held(sessionId, child.pid!, String(Number(started) - 1), Date.now()));
    const locks = createSessionLocks({ locks: store.locks });
    const release = await locks.acquire(sessionId, { waitMs: 0 });
    expect(release).toBeTypeOf('function');
    release!();
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));
    store.locks.insert(held(sessionId, child.pid!, started, Date.now()));
    expect(await locks.acquire(sessionId, { waitMs: 0 })).toBeTypeOf('function');
  });

  it('trusts only the heartbeat for a holder on another host', async () => {
    const { store, sessionId } = storeWithSession();
    const row = { ...held(sessionId, 1, '1', Date.now()), owner: 'other-host:1:1:abcd' };
    store.locks.insert(row);
    const locks = createSessionLocks({ locks: store.locks });
    expect(await locks.acquire(sessionId, { waitMs: 0 })).toBeUndefined();
    store.locks.replace(row.owner, { ...row, heartbeatAt: Date.now() - HOUR_MS });
    expect(await locks.acquire(sessionId, { waitMs: 0 })).toBeTypeOf('function');
  });
});
