import { existsSync } from 'node:fs';
import type { Config } from '../config/config.js';
import type { SessionRecord } from '../contract/session.js';
import type { CliIo } from './cli-io.js';
import { jsonLine, plainText } from './terminal-text.js';

/**
 * One session as `/sessions` and `zhixing sessions` list it: its number (what `--session N`, `/switch N`
 * and `/delete N` take), title, size, last activity and id. `*` marks the REPL's current session.
 */
export function sessionLine(s: SessionRecord, n: number, current: boolean, io: Pick<CliIo, 'style' | 'text'>): string {
  const title = plainText(s.title) || io.text.untitled;
  return `${current ? '*' : ' '} ${n}. ${title} ${io.style.dim(`${io.text.messages(s.messageCount)} · ${io.text.dateTime(s.updatedAt)} · ${s.id}`)}`;
}

/**
 * `zhixing sessions [--json]`: every session, most recently active first, numbered as `--session N`
 * takes them. Reads the database only if there is one: listing never creates a home.
 */
export async function runSessions(config: Config, json: boolean, io: CliIo): Promise<number> {
  let list: SessionRecord[] = [];
  if (existsSync(config.dbPath)) {
    const { createStore } = await import('../store/store.js');
    const store = createStore(config.dbPath);
    try {
      list = store.sessions.list();
    } finally {
      store.close();
    }
  }
  if (json) {
    io.stdout(jsonLine({ sessions: list.map((s, i) => ({ number: i + 1, ...s })) }));
    return 0;
  }
  if (!list.length) io.stdout(`${io.text.noSessions}\n`);
  list.forEach((s, i) => io.stdout(`${sessionLine(s, i + 1, false, io)}\n`));
  return 0;
}
