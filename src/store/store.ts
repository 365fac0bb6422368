import { openDb, type Db } from './db.js';
import { createIdGenerator } from './ids.js';
import { createMessagesRepo, type MessagesRepo } from './messages-repo.js';
import { createPrefsRepo, type PrefsRepo } from './prefs-repo.js';
import { createSessionsRepo, type SessionsRepo } from './sessions-repo.js';
import { createTodosRepo, type TodosRepo } from './todos-repo.js';
import { createTurnsRepo, type TurnsRepo } from './turns-repo.js';

/** Every repository over one SQLite file. The rest of the program never sees SQL. */
export interface Store {
  sessions: SessionsRepo;
  messages: MessagesRepo;
  turns: TurnsRepo;
  todos: TodosRepo;
  prefs: PrefsRepo;
  newId: ReturnType<typeof createIdGenerator>;
  /** Runs `fn` in one transaction: all of it lands or none. */
  transaction<T>(fn: () => T): T;
  /** `PRAGMA integrity_check` → "ok" when the file is sound. */
  integrityCheck(): string;
  close(): void;
}

export function createStore(path: string): Store {
  const db: Db = openDb(path);
  return {
    sessions: createSessionsRepo(db),
    messages: createMessagesRepo(db),
    turns: createTurnsRepo(db),
    todos: createTodosRepo(db),
    prefs: createPrefsRepo(db),
    newId: createIdGenerator(),
    transaction: (fn) => db.transaction(fn)(),
    integrityCheck: () => db.pragma('integrity_check', { simple: true }) as string,
    close: () => db.close(),
  };
}
