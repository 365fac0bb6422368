import { closestName } from '../config/suggest.js';
import type { Command } from './command.js';
import { plainText } from './terminal-text.js';

export const usage = (message: string, zh: string): Command => ({ kind: 'usage-error', message, zh });

/** node:util parseArgs's complaint, first line only, and in Chinese from its code; an unknown option gets the one it most likely meant. */
export function parseError(err: unknown, known: readonly string[]): Command {
  const code = (err as { code?: string }).code;
  const firstLine = (err as Error).message.split('\n')[0]!;
  const option = (/'(-[^']*)'/.exec(firstLine)?.[1] ?? '').replace(/ <value>$/, '');
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const meant = /^--[\w-]+$/.test(option) ? closestName(option.slice(2), known) : undefined;
    const shown = plainText(option);
    return meant
      ? usage(`Unknown option ${shown}. Did you mean --${meant}?`, `没有 ${shown} 这个选项。你是想用 --${meant} 吗？`)
      : usage(
          `Unknown option ${shown}. To send a message that starts with -, put it after --: zhixing -- "${shown}".`,
          `没有 ${shown} 这个选项。要发送以 - 开头的消息，把它放在 -- 之后：zhixing -- "${shown}"。`,
        );
  }
  const message = firstLine;
  const zh =
    code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE'
      ? `选项 ${option || message} 的值不对：${/needs|argument missing/i.test(message) ? '它需要一个值' : '它不接受值'}。`
      : code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL'
        ? `这个命令不接受多余的参数（${message}）。`
        : `参数有误：${message}`;
  return usage(message, zh);
}
