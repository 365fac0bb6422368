/**
 * Reading what a tool call gave back. A result carries data beside its text (whether it worked, the
 * todo list, the forecast), and the planner acts on the data, so a tool's wording cannot change what
 * it does. A result without data (one stored before results carried it, or from a tool that gives
 * none) is read from the text, as the registry writes it: a failure starts with "Error: ".
 */
import type { ToolData, ToolResultData } from '../../contract/tool-data.js';

const ERROR_PREFIX = /^Error:\s*/;

/** Whether the call failed. */
export function failed(output: string, result: ToolResultData | undefined): boolean {
  return result ? !result.ok : ERROR_PREFIX.test(output.trim());
}

/** A failure's account, as the user should hear it: the text without the registry's "Error: ". */
export const failureText = (output: string): string => output.trim().replace(ERROR_PREFIX, '');

/** The result's data of one kind, if it has it. */
export function dataOf<K extends ToolData['kind']>(
  result: ToolResultData | undefined,
  kind: K,
): Extract<ToolData, { kind: K }> | undefined {
  const data = result?.ok ? result.data : undefined;
  return data?.kind === kind ? (data as Extract<ToolData, { kind: K }>) : undefined;
}
