import { say, type Lang } from '../i18n.js';
import type { SandboxInfo } from '../shell/sandbox.js';

const ZH_REASONS: Record<string, string> = {
  'bubblewrap (bwrap) is not installed': '没有安装 bubblewrap（bwrap）',
  'sandbox-exec is not available': '没有 sandbox-exec',
};

/**
 * What the user is told when shell commands cannot be contained: that each one will ask first, and
 * what would fix it. One sentence, for the REPL's banner and `zhixing config`.
 */
export function noSandboxText(info: SandboxInfo, lang: Lang, platform: NodeJS.Platform = process.platform): string {
  const reason = info.reason ?? 'unknown';
  // The trial's own fixed sentences have Chinese forms; what a sandbox program printed is shown as it is.
  const why = lang === 'zh' ? (ZH_REASONS[reason] ?? reason) : reason;
  const fix =
    platform === 'linux'
      ? info.kind === 'bwrap'
        ? say(
            lang,
            '请确认系统允许非特权用户命名空间（例如 sysctl kernel.unprivileged_userns_clone=1）。',
            'Check that unprivileged user namespaces are allowed (e.g. sysctl kernel.unprivileged_userns_clone=1).',
          )
        : say(
            lang,
            '安装 bubblewrap 即可：apt-get install bubblewrap（或 dnf install bubblewrap）。',
            'To fix it, install bubblewrap: apt-get install bubblewrap (or dnf install bubblewrap).',
          )
      : platform === 'darwin'
        ? say(
            lang,
            'sandbox-exec 是 macOS 自带的，请检查 /usr/bin/sandbox-exec。',
            'sandbox-exec comes with macOS: check /usr/bin/sandbox-exec.',
          )
        : '';
  return say(
    lang,
    `没有可用的沙箱（${why}）：shell 命令将不受限制地运行，所以每条命令都会先征求你的同意。${fix}`,
    `no sandbox (${why}): shell commands would run uncontained, so each one asks you first. ${fix}`,
  ).trimEnd();
}
