/**
 * The few words a trace line adds about how a call's permissions were decided: `allowed by rule
 * file_write`, `denied by rule shell › curl *`, `you allowed it`. Said only when it tells something:
 * a read let through by a rule, or a call no rule names, is what everyone expects, so it goes unsaid.
 */
import { say, type Lang } from '../i18n.js';
import type { PermissionRecord } from '../contract/permission.js';
import { plainText } from './terminal-text.js';

/** Actions that only look: allowed by a rule, they need no word. */
const READ_ACTION = /\.(read|list)$/;

/** One decision in words, or '' when it goes without saying. */
export function decisionText(r: PermissionRecord, lang: Lang): string {
  const rule = plainText(r.rule ?? '');
  if (r.decision === 'deny') {
    switch (r.by) {
      case 'rule':
        return rule
          ? say(lang, `被规则 ${rule} 拒绝`, `denied by rule ${rule}`)
          : say(lang, '被规则拒绝', 'denied by a rule');
      case 'remembered':
        return say(lang, '之前已拒绝', 'denied earlier');
      case 'user':
        return say(lang, '你拒绝了', 'you declined');
      case 'sandbox':
        return say(lang, '在工作区之外，已拒绝', 'outside the workspace, refused');
      case 'cancelled':
        return say(lang, '询问时已停止', 'stopped while asking');
      case 'no-host':
        return say(lang, '无人可问，已拒绝（--yes 可批准）', 'nobody to ask, refused (--yes approves)');
      case 'yes':
        return say(
          lang,
          '--yes 不能批准这一项，只有你本人可以',
          'not approved: --yes cannot approve this, only you can',
        );
      default:
        return say(lang, '已拒绝', 'refused');
    }
  }
  switch (r.by) {
    case 'rule':
      // No rule named means nothing named the tool: the fallback allow, which needs no word either.
      if (READ_ACTION.test(r.action) || !rule) return '';
      return say(lang, `规则 ${rule} 允许`, `allowed by rule ${rule}`);
    case 'remembered':
      return say(lang, '之前选了“总是允许”', 'allowed earlier ("always")');
    case 'user':
      return say(lang, '你允许了', 'you allowed it');
    case 'yes':
      return say(lang, '由 --yes 批准', 'approved by --yes');
    default:
      return '';
  }
}

/**
 * What a call's trace line says about its permissions and what it changed, joined by ` · `; '' when
 * nothing needs saying. A refusal is all that is said when there is one: it is why the call failed.
 */
export function permissionNote(
  records: PermissionRecord[] | undefined,
  metadata: Record<string, unknown> | undefined,
  lang: Lang,
): string {
  const list = records ?? [];
  const refused = list.filter((r) => r.decision === 'deny');
  const words = (refused.length ? refused : list).map((r) => decisionText(r, lang)).filter(Boolean);
  // Why an ask the rules alone would have allowed had to ask (outside content in the turn, no sandbox): the refusal's cause.
  const why = refused.find((r) => (r.by === 'no-host' || r.by === 'user') && r.reason)?.reason;
  if (why) words.push(plainText(why));
  // A file write says `created: false` when the file was there before: worth saying it was overwritten.
  if (!refused.length && metadata?.created === false)
    words.push(say(lang, '覆盖了已有文件', 'overwrote an existing file'));
  return [...new Set(words)].join(' · ');
}
