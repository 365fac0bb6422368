import { randomUUID } from 'node:crypto';
import type { Bus, EventOf } from '../bus/bus.js';
import type { PermissionDecisionsRepo } from '../store/permission-decisions-repo.js';
import type { PermissionDecision, PermissionRecord, PermissionRefusal, PermissionRequest, ToolContext } from '../tools/tool.js';

/** What a tool may do: run, ask the user first, or never run. */
export type PermissionRule = 'allow' | 'ask' | 'deny';

/** The user's answer: allow this call, allow this tool on this target from now on, or refuse. */
export type PermissionReply = 'once' | 'always' | 'deny';

/** A request as the service takes it: what the tool asked, and the call that asked it. */
export type PermissionAsk = PermissionRequest & Required<Pick<PermissionRequest, 'tool' | 'callId' | 'sessionId' | 'turnId'>>;

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
export type CallPermissions = Pick<ToolContext, 'ask' | 'refusal'> & {
  /** Every request the call made and how each was decided, in order. */
  records(): PermissionRecord[];
};

/** The tool call a ToolContext's `ask` speaks for. */
export interface AskingCall {
  tool: string;
  callId: string;
  sessionId: string;
  turnId: string;
  /** The turn's signal: stopping the turn withdraws the call's open ask. */
  signal: AbortSignal;
}

/** Which tools ask first. Rules over what a call touches (patterns) come later. */
export interface AskRules {
  setRule(tool: string, rule: PermissionRule): void;
  /** A tool without a rule runs (inside the sandbox). */
  rule(tool: string): PermissionRule;
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
  askRules: AskRules;
}

export interface PermissionServiceOptions {
  bus: Bus;
  /** Where "always" answers are kept across runs; without it they last as long as the process. */
  decisions?: PermissionDecisionsRepo;
  /** `permissions` from config.json. */
  rules?: Record<string, PermissionRule>;
  /** `--yes`: every ask is answered "once" at once, still announced so hosts can show it. Never overrides a refusal. */
  autoApprove?: boolean;
  now?: () => number;
  newId?: () => string;
}

const DEFAULT_RULE: PermissionRule = 'allow';

/** What a host shows of a command line beside the question: its sub-commands, and why it must ask. */
function askedParts(request: PermissionAsk): Pick<PendingAsk, 'parts' | 'mustAsk'> {
  return {
    ...(request.parts?.length && { parts: request.parts.map(({ text, opaque }) => ({ text, ...(opaque !== undefined && { opaque }) })) }),
    ...(request.mustAsk !== undefined && { mustAsk: request.mustAsk }),
  };
}

/**
 * The permission layer every tool reaches through `ctx.ask`. The sandbox stays the first rule (inside
 * allowed, outside refused); a tool whose rule is `ask` waits for the user, and the wait is part of
 * the turn: nothing times out while they decide, and stopping the turn withdraws the question.
 */
export function createPermissionService(options: PermissionServiceOptions): PermissionService {
  const { bus, decisions } = options;
  const now = options.now ?? Date.now;
  const newId = options.newId ?? (() => `per_${randomUUID()}`);
  const rules = new Map(Object.entries(options.rules ?? {}));
  const key = (tool: string, target: string) => `${tool}\0${target}`;
  const remembered = new Map((decisions?.list() ?? []).map((d) => [key(d.tool, d.pattern), d.decision]));
  const open = new Map<string, { asked: PendingAsk; settle(reply: PermissionReply | 'cancelled' | 'no-host'): void }>();

  function ask(request: PermissionAsk, { signal }: { signal: AbortSignal }): Promise<PermissionAnswer> {
    const rule = rules.get(request.tool) ?? DEFAULT_RULE;
    const kept = remembered.get(key(request.tool, request.target));
    const base = { action: request.action, target: request.target };
    const done = (decision: PermissionDecision, by: PermissionRecord['by'], extra: Partial<PermissionAnswer> = {}, ruleName?: string) =>
      Promise.resolve({ decision, ...extra, record: { ...base, decision, by, ...(ruleName ? { rule: ruleName } : {}) } });
    // Deny wins: nothing, not --yes nor an earlier "always", lets a call past one.
    if (!request.insideSandbox) return done('deny', 'sandbox');
    if (rule === 'deny') return done('deny', 'rule', {}, request.tool);
    if (kept === 'deny') return done('deny', 'remembered');
    if (rule === 'allow') return done('allow', 'rule', {}, request.tool);
    if (kept === 'allow') return done('allow', 'remembered');
    if (signal.aborted) return done('deny', 'cancelled', { refusal: 'cancelled' });

    const { sessionId, turnId, callId, tool, action, target } = request;
    const asked: PendingAsk = { id: newId(), sessionId, turnId, callId, tool, action, target, ...askedParts(request) };
    const replied = (decision: PermissionReply | 'cancelled') =>
      bus.emit({ type: 'permission.replied', id: asked.id, sessionId, decision });
    if (options.autoApprove) {
      bus.emit({ type: 'permission.asked', ...asked });
      replied('once');
      return done('allow', 'yes');
    }
    const answer = new Promise<PermissionAnswer>((resolve) => {
      const onAbort = () => settle('cancelled');
      const settle = (reply: PermissionReply | 'cancelled' | 'no-host') => {
        open.delete(asked.id);
        signal.removeEventListener('abort', onAbort);
        if (reply === 'always') remembered.set(key(tool, target), 'allow');
        if (reply === 'no-host') {
          replied('deny');
          return resolve({ decision: 'deny', refusal: 'declined', record: { ...base, decision: 'deny', by: 'no-host' } });
        }
        replied(reply);
        if (reply === 'once' || reply === 'always') resolve({ decision: 'allow', record: { ...base, decision: 'allow', by: 'user' } });
        else if (reply === 'deny') resolve({ decision: 'deny', refusal: 'declined', record: { ...base, decision: 'deny', by: 'user' } });
        else resolve({ decision: 'deny', refusal: 'cancelled', record: { ...base, decision: 'deny', by: 'cancelled' } });
      };
      open.set(asked.id, { asked, settle });
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
      const { tool, target } = entry.asked;
      // The call goes ahead even if this write fails (the error reaches the host); only the next run would ask again.
      if (decision === 'always') decisions?.save({ tool, pattern: target, decision: 'allow', createdAt: now() });
      return true;
    },
    refuseUnanswered(id) {
      const entry = open.get(id);
      if (!entry) return false;
      entry.settle('no-host');
      return true;
    },
    pending: (sessionId) =>
      [...open.values()].map((e) => ({ ...e.asked })).filter((a) => sessionId === undefined || a.sessionId === sessionId),
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
    askRules: {
      setRule: (tool, rule) => void rules.set(tool, rule),
      rule: (tool) => rules.get(tool) ?? DEFAULT_RULE,
    },
  };
}
