import { randomBytes } from 'node:crypto';

export type IdPrefix = 'ses' | 'msg' | 'prt' | 'trn' | 'mem';

/**
 * Sortable prefixed ids: `ses_` + 10 base-36 time digits + a per-generator counter + a random
 * tag drawn once per generator (so two processes writing one database never collide).
 * Ids made by one generator sort in creation order even within the same millisecond.
 */
export function createIdGenerator(now: () => number = Date.now): (prefix: IdPrefix) => string {
  let lastMs = 0;
  let counter = 0;
  const tag = randomBytes(4).toString('hex');
  return (prefix) => {
    const ms = now();
    counter = ms === lastMs ? counter + 1 : 0;
    lastMs = ms;
    const time = ms.toString(36).padStart(10, '0');
    const seq = counter.toString(36).padStart(3, '0');
    return `${prefix}_${time}${seq}${tag}`;
  };
}
