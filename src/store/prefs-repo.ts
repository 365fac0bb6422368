import type { Db } from './db-type.js';

/** Small facts about the user that outlive sessions: their name, preferred language. */
export interface PrefsRepo {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

export function createPrefsRepo(db: Db, now: () => number = Date.now): PrefsRepo {
  const get = db.prepare('SELECT value FROM preferences WHERE key = ?');
  const set = db.prepare(`INSERT INTO preferences (key, value, updated_at) VALUES (?, ?, ?)
    ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`);
  return {
    get: (key) => (get.get(key) as { value: string } | undefined)?.value,
    set: (key, value) => void set.run(key, value, now()),
  };
}
