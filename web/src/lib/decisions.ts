/**
 * How a call's permissions were decided, in the words its card shows. Said only when it tells
 * something: a read let through by a rule, or a call no rule names, goes unsaid (the CLI's trace says the same).
 */
import { t } from './i18n';
import type { PermissionRecord } from './types';

/** Actions that only look: allowed by a rule, they need no word. */
const READ_ACTION = /\.(read|list)$/;

export interface DecisionLine {
  kind: 'allow' | 'deny' | 'note';
  text: string;
  /** Who decided, for tests and styling: rule, user, yes, no-host… */
  by: string;
}

function line(r: PermissionRecord): DecisionLine | undefined {
  const rule = r.rule || t('decRuleAny');
  const text = (() => {
    if (r.decision === 'deny') {
      return {
        rule: t('decRuleDeny', { rule }),
        remembered: t('decRememberedDeny'),
        user: t('decUserDeny'),
        sandbox: t('decSandbox'),
        cancelled: t('decCancelled'),
        'no-host': t('decNoHost'),
        yes: t('decYesDeny'),
      }[r.by];
    }
    // No rule named: nothing named the tool, and the fallback allow needs no word.
    if (r.by === 'rule') return READ_ACTION.test(r.action) || !r.rule ? '' : t('decRule', { rule });
    return (
      ({ remembered: t('decRemembered'), user: t('decUser'), yes: t('decYes') } as Record<string, string>)[r.by] ?? ''
    );
  })();
  return text ? { kind: r.decision, text, by: r.by } : undefined;
}

/** The card's lines: the refusals alone when there are any (they are why the call failed), else what allowed it. */
export function decisionLines(
  records: PermissionRecord[] | undefined,
  metadata: Record<string, unknown> | undefined,
): DecisionLine[] {
  const list = records ?? [];
  const refused = list.filter((r) => r.decision === 'deny');
  const lines: DecisionLine[] = [];
  for (const r of refused.length ? refused : list) {
    const l = line(r);
    if (l && !lines.some((x) => x.text === l.text)) lines.push(l);
  }
  if (!refused.length && metadata?.created === false)
    lines.push({ kind: 'note', text: t('decOverwrote'), by: 'overwrote' });
  return lines;
}
