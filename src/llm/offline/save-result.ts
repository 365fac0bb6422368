/**
 * A result kept in a file: 「算一下 25*4，然后把结果保存到 result.txt」, 「把待办清单存到 todo.txt」,
 * "save my todo list to todos.md". The call runs first; its result is then written, as the user saw it.
 */
import { say, type Lang } from '../../i18n.js';
import { fileText } from './file-append.js';
import { KEEP_AS_TODO, str, type PlannedCall, type Second } from './intent.js';
import { renderReply } from './replies.js';
import { failed } from './tool-results.js';
import type { ToolResultData } from '../../contract/tool-data.js';

/** The text a call's result is kept as: a sum with its answer, a file's text, anything else as the tool said it. */
function resultText(call: PlannedCall, output: string): string | undefined {
  if (call.name === 'calculator') return `${str(call.args.expression)} = ${output.trim()}`;
  // A copy keeps the text exactly; a file too long to have been read whole cannot be copied.
  if (call.name === 'file_read') return fileText(str(call.args.path), output);
  return output.trim();
}

/** After the call ran: the write of its result (or the todo), or why there is none. The call's own result is said too. */
export function saveStep(
  call: PlannedCall,
  output: string | undefined,
  tools: ReadonlySet<string>,
  lang: Lang,
  result?: ToolResultData,
): Second {
  const path = call.saveTo!;
  const todo = path === KEEP_AS_TODO;
  const tool = todo ? 'todo_add' : 'file_write';
  if (!tools.has(tool))
    return { kind: 'note', keep: true, note: renderReply({ kind: 'missing', tools: [tool] }, { lang, tools }) };
  const text = output === undefined || failed(output, result) ? undefined : resultText(call, output);
  if (text === undefined) {
    const where = todo ? say(lang, '待办', 'your todos') : path;
    return {
      kind: 'note',
      keep: true,
      note: say(
        lang,
        `因为没有完整的结果，没有写入${where}。`,
        `There was no whole result, so nothing was written to ${where}.`,
      ),
    };
  }
  if (todo) return { kind: 'calls', keep: true, calls: [{ name: 'todo_add', args: { content: text } }] };
  return { kind: 'calls', keep: true, calls: [{ name: 'file_write', args: { path, content: text } }] };
}
