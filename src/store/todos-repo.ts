import type { Db } from './db.js';

export interface TodoRow {
  /** The position shown to the user (1-based, creation order, stable until a deletion). */
  number: number;
  id: number;
  content: string;
  due: string | null;
  done: boolean;
  createdAt: number;
  doneAt: number | null;
}

export interface TodosRepo {
  add(content: string, due: string | null, now: number): TodoRow;
  /** Every item, numbered as listed. */
  list(): TodoRow[];
  markDone(id: number, now: number): void;
  delete(id: number): void;
}

interface Row {
  id: number;
  content: string;
  due: string | null;
  done: number;
  created_at: number;
  done_at: number | null;
}

export function createTodosRepo(db: Db): TodosRepo {
  const insert = db.prepare('INSERT INTO todos (content, due, created_at) VALUES (?, ?, ?)');
  const all = db.prepare('SELECT * FROM todos ORDER BY id');
  const done = db.prepare('UPDATE todos SET done = 1, done_at = ? WHERE id = ?');
  const del = db.prepare('DELETE FROM todos WHERE id = ?');

  const list = (): TodoRow[] =>
    (all.all() as Row[]).map((r, i) => ({
      number: i + 1,
      id: r.id,
      content: r.content,
      due: r.due,
      done: r.done === 1,
      createdAt: r.created_at,
      doneAt: r.done_at,
    }));

  return {
    add(content, due, now) {
      const id = Number(insert.run(content, due, now).lastInsertRowid);
      // Its number is its place in the list, which another process may have grown meanwhile.
      return list().find((t) => t.id === id)!;
    },
    list,
    markDone: (id, now) => void done.run(now, id),
    delete: (id) => void del.run(id),
  };
}
