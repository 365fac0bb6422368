import { randomUUID } from 'node:crypto';
import type { Bus, EventOf } from '../bus/bus.js';
import type { PermissionDecisionsRepo } from '../store/permission-decisions-repo.js';
import { checkRules, PermissionRulesError } from './rules-check.js';
import { evaluate, patternsToRemember, withDefaults, type Verdict } from './rules.js';
import type {
  PermissionDecision,
  PermissionRecord,
  PermissionRefusal,
  PermissionRequest,
  PermissionRules,
} from '../contract/permission.js';

/** The user's answer: allow this call, allow this tool on this target from now on, or refuse. */
export type PermissionReply = 'once' | 'always' | 'deny';

/** A request as the service takes it: what the tool asked, and the call that asked it. */
export type PermissionAsk = PermissionRequest &
  Required<Pick<PermissionRequest, 'tool' | 'callId' | 'sessionId' | 'turnId'>>;

/** An ask waiting for the user, as `permission.asked` announced it. */
export type PendingAsk = Omit<EventOf<'permission.asked'>, 'type' | 'seq'>;

export interface PermissionAnswer {
  decision: PermissionDecision;
  /** Set when a person, not a rule, refused: the user declined, or the turn stopped while they decided. */
  refusal?: PermissionRefusal;
  /** How it was decided, for the call's record and card. */
  record: PermissionRecord;
}

/** What a call's ToolContext gets from the permission layer, and the decisions it made for that call. */
export interface CallPermissions {
  ask(request: PermissionRequest): Promise<PermissionDecision>;
  /** After `ask` said 'deny': set when a person, not a rule, refused. */
  refusal(): PermissionRefusal | undefined;
  /** Every request the call made and how each was decided, in order. */
  records(): PermissionRecord[];
}

/** The tool call a ToolContext's `ask` speaks for. */
export interface AskingCall {
  tool: string;
  callId: string;
  sessionId: string;
  turnId: string;
  /** The turn's signal: stopping the turn withdraws the call's open ask. */
  signal: AbortSignal;
}

export interface PermissionService {
  /**
   * Decides a request. Outside the sandbox, under a `deny` rule, it is refused; no flag or answer
   * overrides that. Under `ask`, unless allowed "always" before, it is announced as `permission.asked`
   * and waits for `reply`; an abort of `signal` withdraws it (refused, `cancelled`).
   */
  ask(request: PermissionAsk, options: { signal: AbortSignal }): Promise<PermissionAnswer>;
  /** Answers an open ask. False when there is no such ask or it was answered already. */
  reply(id: string, decision: PermissionReply): boolean;
  /**
   * Refuses an open ask that nobody can answer (a one-shot run without a terminal, input that ended):
   * like `reply(id, 'deny')`, but recorded as `no-host`, so the call's card says nobody was asked.
   */
  refuseUnanswered(id: string): boolean;
  /** The open asks, oldest first, of one session or of all: for a host that connects while they wait. */
  pending(sessionId?: string): PendingAsk[];
  /** `ask` and `refusal` for one call's ToolContext: every request it makes carries the call's ids. */
  askFor(call: AskingCall): CallPermissions;
  /** The user's own rules, as configured (without the defaults). */
  rules(): PermissionRules;
  /** The rules in effect: the defaults with the user's keys laid over them. */
  effective(): PermissionRules;
  /**
   * Replaces the user's rules: checked, saved (config.json's `permissions`), and applied from the next
   * request on. Rules that cannot be used throw PermissionRulesError, and nothing is saved or applied;
   * a failed save throws too, and the rules in effect stay as they were.
   */
  setRules(rules: PermissionRules): void;
  /** The "always" answers, oldest first. */
  remembered(): RememberedDecision[];
  /** Forgets one "always" answer, here and in the store. False when there was none. */
  forget(tool: string, pattern: string): boolean;
}

/** An "always" answer: this tool, on exactly this text (a target, or one part of a command line). */
export interface RememberedDecision {
  tool: string;
  pattern: string;
  decision: PermissionDecision;
  createdAt: number;
}

export interface PermissionServiceOptions {
  bus: Bus;
  /** Where "always" answers are kept across runs; without it they last as long as the process. */
  decisions?: PermissionDecisionsRepo;
  /** `permissions` from config.json: the user's rules, without the defaults. */
  rules?: PermissionRules;
  /** Keeps rules set through `setRules` (config.json's `permissions`); without it they last as long as the process. */
  saveRules?: (rules: PermissionRules) => void;
  /** `--yes`: every ask is answered "once" at once, still announced so hosts can show it. Never overrides a refusal. */
  autoApprove?: boolean;
  now?: () => number;
  newId?: () => string;
}

/**
 * How much of one sub-command a record or an ask shows. The whole line is there beside it; a wrapper
 * repeated 30 times would otherwise be kept 30 times over, each copy holding the rest of the line.
 */
const MAX_PART_CHARS = 300;
const shownPart = (text: string) => (text.length > MAX_PART_CHARS ? `${text.slice(0, MAX_PART_CHARS)}…` : text);

const recordParts = (verdict: Verdict): Pick<PermissionRecord, 'parts'> =>
  verdict.parts
    ? {
        parts: verdict.parts.map((p) => ({
          text: shownPart(p.text),
          decision: p.decision,
          ...(p.rule ? { rule: p.rule } : {}),
          ...(p.opaque ? { opaque: p.opaque } : {}),
          ...(p.remembered ? { remembered: true } : {}),
          ...(p.needsPerson ? { needsPerson: true } : {}),
        })),
      }
    : {};

/**
 * What a host shows of a command line beside the question: its sub-commands with how the rules alone
 * took each (so it can say which one asks), and why it must ask.
 */
function askedParts(request: PermissionAsk, verdict: Verdict): Pick<PendingAsk, 'parts' | 'mustAsk'> {
  const parts = verdict.parts ?? request.parts?.map(({ text, opaque }) => ({ text, opaque }));
  const reason = request.mustAsk ?? verdict.reason;
  return {
    ...(parts?.length && {
      parts: parts.map((p) => ({
        text: shownPart(p.text),
        ...(p.opaque !== undefined && { opaque: p.opaque }),
        ...('decision' in p && { decision: p.decision }),
        ...('rule' in p && p.rule !== undefined && { rule: p.rule }),
      })),
    }),
    ...(reason !== undefined && { mustAsk: reason }),
  };
}

/**
 * The permission layer every tool reaches through `ctx.ask`. The sandbox stays the first rule (inside
 * allowed, outside refused); then the rules decide (see `evaluate`); an ask waits for the user, and the
 * wait is part of the turn: nothing times out while they decide, and stopping the turn withdraws it.
 */
export function createPermissionService(options: PermissionServiceOptions): PermissionService {
  const { bus, decisions } = options;
  const now = options.now ?? Date.now;
  const newId = options.newId ?? (() => `per_${randomUUID()}`);
  let userRules: PermissionRules = { ...(options.rules ?? {}) };
  let effective = withDefaults(userRules);
  const key = (tool: string, pattern: string) => `${tool}\0${pattern}`;
  const remembered = new Map((decisions?.list() ?? []).map((d) => [key(d.tool, d.pattern), { ...d }]));
  const open = new Map<
    string,
    { asked: PendingAsk; patterns: string[]; settle(reply: PermissionReply | 'cancelled' | 'no-host'): void }
  >();
  const rememberedAs = (tool: string, text: string) => remembered.get(key(tool, text))?.decision;

  function ask(request: PermissionAsk, { signal }: { signal: AbortSignal }): Promise<PermissionAnswer> {
    const base = { action: request.action, target: request.target };
    const done = (
      decision: PermissionDecision,
      by: PermissionRecord['by'],
      extra: Partial<PermissionAnswer> = {},
      more: Partial<PermissionRecord> = {},
    ) => Promise.resolve({ decision, ...extra, record: { ...base, decision, by, ...more } });
    // Deny wins: nothing, not --yes nor an earlier "always", lets a call past one.
    if (!request.insideSandbox) return done('deny', 'sandbox');
    // A "deny" kept by an earlier version for exactly this target still holds.
    if (!request.parts && rememberedAs(request.tool, request.target) === 'deny') return done('deny', 'remembered');
    const verdict = evaluate(effective, request.tool, request, {
      remembered: (text) => rememberedAs(request.tool, text) === 'allow',
    });
    const how: Partial<PermissionRecord> = {
      ...(verdict.rule ? { rule: verdict.rule } : {}),
      ...recordParts(verdict),
      ...(verdict.reason ? { reason: verdict.reason } : {}),
    };
    if (verdict.decision === 'deny') return done('deny', 'rule', {}, how);
    if (verdict.decision === 'allow') return done('allow', verdict.remembered ? 'remembered' : 'rule', {}, how);
    if (signal.aborted) return done('deny', 'cancelled', { refusal: 'cancelled' }, how);

    const { sessionId, turnId, callId, tool, action, target } = request;
    if (options.autoApprove && verdict.needsPerson) {
      // --yes approves what the rules leave open, not what could be a denied program in disguise.
      return done(
        'deny',
        'yes',
        { refusal: 'needs-person' },
        { ...how, reason: `only a person may approve this: ${verdict.reason ?? 'what it runs cannot be read'}` },
      );
    }
    const asked: PendingAsk = {
      id: newId(),
      sessionId,
      turnId,
      callId,
      tool,
      action,
      target,
      ...askedParts(request, verdict),
      ...(verdict.reason ? { reason: verdict.reason } : {}),
      ...(verdict.needsPerson ? { needsPerson: true } : {}),
    };
    const replied = (decision: PermissionReply | 'cancelled') =>
      bus.emit({ type: 'permission.replied', id: asked.id, sessionId, decision });
    if (options.autoApprove) {
      bus.emit({ type: 'permission.asked', ...asked });
      replied('once');
      return done('allow', 'yes', {}, how);
    }
    const patterns = patternsToRemember(request, verdict);
    const answer = new Promise<PermissionAnswer>((resolve) => {
      const onAbort = () => settle('cancelled');
      const settle = (reply: PermissionReply | 'cancelled' | 'no-host') => {
        open.delete(asked.id);
        signal.removeEventListener('abort', onAbort);
        if (reply === 'always')
          for (const pattern of patterns)
            remembered.set(key(tool, pattern), { tool, pattern, decision: 'allow', createdAt: now() });
        if (reply === 'no-host') {
          replied('deny');
          return resolve({
            decision: 'deny',
            refusal: 'unanswered',
            record: { ...base, decision: 'deny', by: 'no-host', ...how },
          });
        }
        replied(reply);
        const record = (decision: PermissionDecision, by: PermissionRecord['by']) => ({
          ...base,
          decision,
          by,
          ...how,
        });
        if (reply === 'once' || reply === 'always') resolve({ decision: 'allow', record: record('allow', 'user') });
        else if (reply === 'deny') resolve({ decision: 'deny', refusal: 'declined', record: record('deny', 'user') });
        else resolve({ decision: 'deny', refusal: 'cancelled', record: record('deny', 'cancelled') });
      };
      open.set(asked.id, { asked, patterns, settle });
      signal.addEventListener('abort', onAbort, { once: true });
    });
    // Announced only once it can be answered: a host may reply from inside its handler.
    bus.emit({ type: 'permission.asked', ...asked });
    return answer;
  }

  return {
    ask,
    reply(id, decision) {
      const entry = open.get(id);
      if (!entry) return false;
      entry.settle(decision);
      const { tool } = entry.asked;
      // The call goes ahead even if this write fails (the error reaches the host); only the next run would ask again.
      if (decision === 'always')
        for (const pattern of entry.patterns) decisions?.save({ tool, pattern, decision: 'allow', createdAt: now() });
      return true;
    },
    refuseUnanswered(id) {
      const entry = open.get(id);
      if (!entry) return false;
      entry.settle('no-host');
      return true;
    },
    pending: (sessionId) =>
      [...open.values()]
        .map((e) => ({ ...e.asked }))
        .filter((a) => sessionId === undefined || a.sessionId === sessionId),
    askFor(call) {
      let refusal: PermissionRefusal | undefined;
      const records: PermissionRecord[] = [];
      return {
        records: () => [...records],
        async ask(request) {
          // The call's own ids come last: a tool cannot speak for another.
          const answer = await ask(
            { ...request, tool: call.tool, callId: call.callId, sessionId: call.sessionId, turnId: call.turnId },
            { signal: call.signal },
          );
          refusal = answer.refusal;
          records.push(answer.record);
          return answer.decision;
        },
        refusal: () => refusal,
      };
    },
    rules: () => structuredClone(userRules),
    effective: () => structuredClone(effective),
    setRules(rules) {
      const { rules: checked, problems } = checkRules(rules);
      if (problems.length) throw new PermissionRulesError(problems);
      // Saved first: rules that could not be kept are not put in effect either, so what runs is what the file says.
      options.saveRules?.(checked);
      userRules = checked;
      effective = withDefaults(checked);
    },
    remembered: () => [...remembered.values()].sort((a, b) => a.createdAt - b.createdAt).map((d) => ({ ...d })),
    forget(tool, pattern) {
      const had = remembered.delete(key(tool, pattern));
      const removed = decisions?.remove(tool, pattern) ?? false;
      return had || removed;
    },
  };
}
