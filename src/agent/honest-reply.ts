import type { ActionRecord } from '../contract/tool-outcome.js';
import { say, type Lang } from '../i18n.js';
import type { StopReason } from './stop-conditions.js';

const preview = (text: string, max = 80) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
};

/**
 * The reply when the loop stopped before the model finished: why it stopped, what was done and
 * what was not. Written by code, so it cannot overstate what happened.
 */
export function honestReply(
  reason: Exclude<StopReason, 'done'>,
  actions: ActionRecord[],
  lang: Lang,
  detail = '',
): string {
  const why: Record<typeof reason, string> = {
    max_steps: say(lang, '步骤数到了上限，我先停下了。', 'I stopped because the turn reached its step limit.'),
    repeated_call: say(
      lang,
      '同一个操作用相同参数重复了三次，我停下来以免空转。',
      'I stopped because the same action was repeated three times with the same input.',
    ),
    aborted: say(lang, '已按你的要求停止。', 'Stopped as you asked.'),
    interrupted: say(lang, '程序正在关闭，这一轮被中断了。', 'Interrupted: the program was shutting down.'),
    error: say(lang, `出错了，没能完成：${detail}`, `Something went wrong and I could not finish: ${detail}`),
    limit: say(lang, `我停下了：${detail}`, `I stopped: ${detail}`),
  };
  const lines = [why[reason]];
  const done = actions.filter((a) => a.ok);
  const failed = actions.filter((a) => !a.ok);
  if (done.length) {
    lines.push(say(lang, '已完成：', 'Done:'));
    for (const a of done) lines.push(`- ${a.tool}: ${preview(a.output)}`);
  }
  if (failed.length) {
    lines.push(say(lang, '未完成：', 'Not done:'));
    for (const a of failed) lines.push(`- ${a.tool}: ${preview(a.output.replace(/^Error: /, ''))}`);
  }
  if (!actions.length && reason !== 'error')
    lines.push(say(lang, '这一轮没有执行任何操作。', 'No action was taken in this turn.'));
  return lines.join('\n');
}
