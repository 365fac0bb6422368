import { say, type Lang } from '../i18n.js';
import type { PermissionRefusal } from '../contract/permission.js';
import type { CommandResult } from '../shell/run.js';
import type { SandboxInfo } from '../shell/sandbox.js';
import { formatBytes } from './sandbox.js';

/** How much of a command is shown in a sentence or on the card. */
const SHOWN_COMMAND_CHARS = 100;

/** The command's first line, cut: enough to recognise it in a sentence. */
export function shownCommand(command: string): string {
  const lines = command.trim().split('\n');
  const first = lines[0]!;
  const cut = first.length > SHOWN_COMMAND_CHARS ? `${first.slice(0, SHOWN_COMMAND_CHARS)}…` : first;
  return lines.length > 1 && cut === first ? `${cut} …` : cut;
}

const seconds = (ms: number) => (ms < 10_000 ? (ms / 1000).toFixed(1) : String(Math.round(ms / 1000)));

/** What the model is told about the sandbox, where the platform has one. */
export function sandboxSentence(platform: NodeJS.Platform, network: boolean): string {
  const which = platform === 'darwin' ? 'a sandbox-exec (Seatbelt) sandbox' : 'a bubblewrap sandbox';
  return (
    `It runs in ${which}: the file system is read-only except the workspace, a private /tmp and an empty HOME of its own; ` +
    `the user's files outside the workspace and the assistant's own settings and database cannot be seen. ` +
    `${network ? 'The internet is reachable; local and private network addresses are not.' : 'There is no network access.'} ` +
    'Where no sandbox works the user is asked before every command, and the result says it ran without one.'
  );
}

export function cutNote(lang: Lang, cutBytes: number): string {
  return say(
    lang,
    `[…… 中间 ${formatBytes(cutBytes)} 字节的输出已省略 ……]`,
    `[… ${formatBytes(cutBytes)} bytes of output cut from the middle …]`,
  );
}

/** The first line the model reads: how the command ended, plainly. */
export function statusLine(lang: Lang, r: CommandResult, info: SandboxInfo): string {
  const time = seconds(r.ms);
  const bare = info.ok ? '' : say(lang, '（未在沙箱中运行）', ' (ran without a sandbox)');
  if (r.exitCode === 0) return say(lang, `退出码 0，用时 ${time} 秒${bare}`, `Exit code 0 (${time} s)${bare}`);
  if (r.exitCode !== null) {
    return say(
      lang,
      `退出码 ${r.exitCode}：命令失败了，用时 ${time} 秒${bare}`,
      `Exit code ${r.exitCode}: the command failed (${time} s)${bare}`,
    );
  }
  return say(
    lang,
    `命令被信号 ${r.signal ?? '?'} 终止，用时 ${time} 秒${bare}`,
    `The command was ended by signal ${r.signal ?? '?'} (${time} s)${bare}`,
  );
}

export function outputBody(lang: Lang, r: CommandResult): string {
  if (r.totalBytes === 0) return say(lang, '（没有输出）', '(no output)');
  // NUL never occurs in text: this is a file's bytes, of no use to a model and a hazard to terminals.
  if (r.output.includes('\0')) {
    return say(
      lang,
      `（二进制输出，${formatBytes(r.totalBytes)} 字节，未显示；请把它重定向到文件）`,
      `(binary output, ${formatBytes(r.totalBytes)} bytes, not shown; redirect it to a file)`,
    );
  }
  return r.output;
}

/** Why a command did not finish: its time ran out or it was stopped; everything it started was ended. */
export function stoppedText(lang: Lang, r: CommandResult, timeoutMs: number, maxTimeoutMs: number): string {
  const sofar = r.totalBytes === 0 ? '' : say(lang, `\n此前的输出：\n${r.output}`, `\nOutput so far:\n${r.output}`);
  if (r.stopped === 'timeout') {
    const longer =
      timeoutMs < maxTimeoutMs
        ? say(
            lang,
            `如果它需要更久，请用 timeout_ms 给它更多时间（最多 ${maxTimeoutMs / 1000} 秒）。`,
            ` If it needs longer, give it more with timeout_ms (at most ${maxTimeoutMs / 1000} s).`,
          )
        : '';
    return say(
      lang,
      `命令在 ${seconds(timeoutMs)} 秒后超时，它和它启动的所有进程（包括后台进程）都已被结束。${longer}${sofar}`,
      `The command timed out after ${seconds(timeoutMs)} s; it and every process it started, background ones included, were ended.${longer}${sofar}`,
    );
  }
  return say(
    lang,
    `命令已被停止，它和它启动的所有进程（包括后台进程）都已被结束。${sofar}`,
    `The command was stopped; it and every process it started, background ones included, were ended.${sofar}`,
  );
}

export function startFailedText(lang: Lang, reason: string): string {
  return say(
    lang,
    `无法启动命令：${reason}。没有运行任何东西。`,
    `Could not start the command: ${reason}. Nothing was run.`,
  );
}

export function catastropheText(lang: Lang, command: string, what: string): string {
  const shown = shownCommand(command);
  return say(
    lang,
    `拒绝运行 ${shown}（${what}）：这类命令会造成无法挽回的破坏，无论权限如何设置都不会运行。没有运行任何东西。`,
    `Refused to run ${shown}: ${what}. Commands like this never run, whatever the settings. Nothing was run.`,
  );
}

/**
 * Why a command did not run. `unread`: the line could not be read, which is why only a person may
 * approve it; a person-only ask for any other reason (outside text in the turn) is said by whoever
 * made it, so this does not guess one.
 */
export function refusedText(
  lang: Lang,
  command: string,
  refusal: PermissionRefusal | undefined,
  unread = false,
): string {
  const shown = shownCommand(command);
  if (refusal === 'declined')
    return say(
      lang,
      `用户拒绝运行 ${shown}，没有运行任何东西。`,
      `The user declined to run ${shown}; nothing was run.`,
    );
  if (refusal === 'unanswered') {
    return say(
      lang,
      `运行 ${shown} 需要用户批准，但没有人可以回答（没有终端），所以没有运行。`,
      `Running ${shown} needs the user's approval, and nobody was there to answer (no terminal); nothing was run.`,
    );
  }
  if (refusal === 'needs-person' && !unread) {
    return say(
      lang,
      `运行 ${shown} 只能由用户本人批准，--yes 不能代替，所以没有运行。`,
      `Running ${shown} needs the user's own approval; --yes does not give it, so nothing was run.`,
    );
  }
  if (refusal === 'needs-person') {
    return say(
      lang,
      `运行 ${shown} 只能由用户本人批准（无法事先看清它会运行什么，任何规则都不能替它担保），--yes 不能代替，所以没有运行。`,
      `Running ${shown} needs the user's own approval (what it runs cannot be read beforehand, so no rule can vouch for it); --yes does not give it, so nothing was run.`,
    );
  }
  if (refusal === 'cancelled') {
    return say(
      lang,
      `等待用户批准时回合被停止了，${shown} 没有运行。`,
      `The turn was stopped while waiting for the user's approval; ${shown} did not run.`,
    );
  }
  return say(
    lang,
    `运行 ${shown} 的请求被权限设置拒绝了，没有运行任何东西。`,
    `Running ${shown} was refused by the permission settings; nothing was run.`,
  );
}

export function noSandboxReason(lang: Lang, info: SandboxInfo): string {
  const why = info.reason ?? 'unknown';
  return say(
    lang,
    `没有可用的沙箱（${why}），命令将不受限制地运行`,
    `no sandbox: ${why}; the command would run uncontained`,
  );
}
