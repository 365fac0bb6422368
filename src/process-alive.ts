import { readFileSync } from 'node:fs';

/**
 * Whether a process of this machine still exists. Signal 0 only asks; EPERM means it exists as
 * another user's process, ESRCH that it is gone.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * When a process started, in clock ticks since boot (Linux's /proc/<pid>/stat, field 22), or
 * undefined where that cannot be read. A pid with the same start time is the same process, however
 * long it has been stopped (Ctrl-Z, a suspended laptop); a reused pid has another.
 */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}
