import type { Db } from './db-type.js';

export interface TodoRow {
  /** The number shown to the user: given when the item is added and kept until it is deleted. */
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
  /** Every item, by number. */
  list(): TodoRow[];
  markDone(id: number, now: number): void;
  delete(id: number): void;
}

interface Row {
  id: number;
  number: number;
  content: string;
  due: string | null;
  done: number;
  created_at: number;
  done_at: number | null;
}

export function createTodosRepo(db: Db): TodosRepo {
  // One statement, so two processes adding at once cannot take the same number.
  const insert = db.prepare(
    'INSERT INTO todos (content, due, created_at, number) VALUES (?, ?, ?, (SELECT coalesce(max(number), 0) + 1 FROM todos))',
  );
  const all = db.prepare('SELECT * FROM todos ORDER BY number');
  const done = db.prepare('UPDATE todos SET done = 1, done_at = ? WHERE id = ?');
  const del = db.prepare('DELETE FROM todos WHERE id = ?');

  const list = (): TodoRow[] =>
    (all.all() as Row[]).map((r) => ({
      number: r.number,
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
      return list().find((t) => t.id === id)!;
    },
    list,
    markDone: (id, now) => void done.run(now, id),
    delete: (id) => void del.run(id),
  };
}
