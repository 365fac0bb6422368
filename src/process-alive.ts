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
