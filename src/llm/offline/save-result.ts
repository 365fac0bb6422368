/**
 * A result kept in a file: 「算一下 25*4，然后把结果保存到 result.txt」, 「把待办清单存到 todo.txt」,
 * "save my todo list to todos.md". The call runs first; its result is then written, as the user saw it.
 */
import { say, type Lang } from '../../i18n.js';
import { str, type PlannedCall, type Second } from './intent.js';
import { renderReply } from './replies.js';

/** The text a call's result is kept as: a sum with its answer, anything else as the tool said it. */
function resultText(call: PlannedCall, output: string): string {
  return call.name === 'calculator' ? `${str(call.args.expression)} = ${output.trim()}` : output.trim();
}

/** After the call ran: the write of its result, or why there is none. The call's own result is said too. */
export function saveStep(call: PlannedCall, output: string | undefined, tools: ReadonlySet<string>, lang: Lang): Second {
  const path = call.saveTo!;
  if (!tools.has('file_write')) return { kind: 'note', keep: true, note: renderReply({ kind: 'missing', tools: ['file_write'] }, { lang, tools }) };
  if (output === undefined || /^Error:/.test(output)) {
    return { kind: 'note', keep: true, note: say(lang, `因为没有结果，没有写入 ${path}。`, `There was no result, so nothing was written to ${path}.`) };
  }
  return { kind: 'calls', keep: true, calls: [{ name: 'file_write', args: { path, content: resultText(call, output) } }] };
}
