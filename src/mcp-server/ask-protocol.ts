import { z } from 'zod';

/**
 * How `zhixing --mcp` keeps permission decisions with the user: the one-shot that spawned `zhixing mcp serve`
 * declares this experimental capability, names its own call in each tools/call's `_meta`, and answers
 * `zhixing/permission-ask` requests (every request the tool makes) with its own permission layer: its
 * rules, its terminal, its `--yes`, its record of the call. The child still refuses anything outside its workspace.
 * Only a stdio server honours it: whoever starts a stdio server could as well have given it `--yes`,
 * while an HTTP client is a network peer the operator did not hand approvals to.
 */
export const ASK_CAPABILITY = 'zhixing/permission-asks';
export const ASK_METHOD = 'zhixing/permission-ask';
/** In a tools/call's `_meta`: the caller's id for the call, echoed in its asks. */
export const CALL_META = 'zhixing/call';
/** In a tools/call's `_meta`: the language the caller's turn speaks, for the tool's words. */
export const LANG_META = 'zhixing/lang';
/** In a result's `_meta`: the call's card (title, metadata, attachments' names) that MCP content has no place for. */
export const CARD_META = 'zhixing/card';

export const AskRequestSchema = z.object({
  method: z.literal(ASK_METHOD),
  params: z.object({
    call: z.string(),
    /** The tool's PermissionRequest, as the tool made it. */
    request: z.looseObject({ action: z.string(), target: z.string(), insideSandbox: z.boolean() }),
  }),
});

export const AskResultSchema = z.object({
  decision: z.enum(['allow', 'deny']),
  refusal: z.enum(['declined', 'cancelled', 'unanswered', 'needs-person']).optional(),
});
export type AskResult = z.infer<typeof AskResultSchema>;
