import type { PermissionDecision, PermissionRequest } from '../tools/tool.js';

export interface PermissionPolicy {
  ask(request: PermissionRequest, sessionId: string): Promise<PermissionDecision>;
}

/**
 * The permission seam every tool calls through `ctx.ask`. Today's rule is the sandbox itself:
 * inside the session's workspace is allowed, outside is refused, and no flag overrides a refusal.
 * `autoApprove` (`--yes`) answers future "ask" rules without prompting; it never turns a deny into an allow.
 */
export function createPermissionPolicy(_options: { autoApprove?: boolean } = {}): PermissionPolicy {
  return {
    async ask(request) {
      return request.insideSandbox ? 'allow' : 'deny';
    },
  };
}
