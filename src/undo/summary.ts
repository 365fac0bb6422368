import { say, type Lang } from '../i18n.js';
import type { RevertOutcome } from './revert.js';

/** Names shown per list before the rest is counted. */
const MAX_NAMES = 5;

function names(paths: string[], lang: Lang): string {
  const shown = paths.slice(0, MAX_NAMES);
  const more = paths.length - shown.length;
  const list = shown.join(say(lang, '、', ', '));
  if (more <= 0) return list;
  return say(lang, `${list} 等 ${paths.length} 个`, `${list} and ${more} more`);
}

/** A folder stands for what was in it: "removed build", not every file under it too. */
function topmost(paths: string[]): string[] {
  const all = new Set(paths);
  return paths.filter((p) => {
    for (let i = p.lastIndexOf('/'); i > 0; i = p.lastIndexOf('/', i - 1)) if (all.has(p.slice(0, i))) return false;
    return true;
  });
}

/** One paragraph in the user's language saying what undo did and what it left alone. */
export function undoSentence(o: RevertOutcome, lang: Lang): string {
  const did: string[] = [];
  if (o.restored.length)
    did.push(say(lang, `恢复了 ${names(o.restored, lang)}`, `restored ${names(o.restored, lang)}`));
  const removed = topmost(o.removed);
  const putBack = topmost(o.putBack);
  if (removed.length) did.push(say(lang, `删除了新建的 ${names(removed, lang)}`, `removed ${names(removed, lang)}`));
  if (putBack.length) did.push(say(lang, `找回了被删除的 ${names(putBack, lang)}`, `put back ${names(putBack, lang)}`));
  const parts: string[] = [];
  if (did.length) {
    const joined = did.join(say(lang, '，', ', '));
    parts.push(say(lang, `已撤销上一轮对文件的改动：${joined}。`, `${joined[0]!.toUpperCase()}${joined.slice(1)}.`));
  }
  if (o.conflicts.length) {
    parts.push(
      say(
        lang,
        `${names(o.conflicts, lang)} 在那之后又被改过，保持原样。`,
        `Kept ${names(o.conflicts, lang)} as ${o.conflicts.length === 1 ? 'it is' : 'they are'}: changed since.`,
      ),
    );
  }
  if (o.notCovered.length) {
    parts.push(
      say(
        lang,
        `${names(o.notCovered, lang)} 不在快照里（太大、不是普通文件或超出了快照的限额），无法恢复。`,
        `Could not restore ${names(o.notCovered, lang)}: not in the snapshot (too large, not a regular file, or past the snapshot's limits).`,
      ),
    );
  }
  if (o.failed.length) {
    const list = o.failed.slice(0, MAX_NAMES).map((f) => `${f.path} (${f.error})`);
    const more = o.failed.length - list.length;
    parts.push(
      say(
        lang,
        `恢复失败：${list.join('、')}${more > 0 ? ` 等 ${o.failed.length} 个` : ''}；其余已恢复。可以再试一次 undo。`,
        `Failed to restore ${list.join(', ')}${more > 0 ? ` and ${more} more` : ''}; the rest is restored. Try undo again.`,
      ),
    );
  }
  if (!parts.length)
    parts.push(
      say(
        lang,
        '文件已经是那一轮之前的样子了，没有需要恢复的。',
        'The files were already as they were before that turn; nothing to restore.',
      ),
    );
  return parts.join(' ');
}
