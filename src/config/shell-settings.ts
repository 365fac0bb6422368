import { z } from 'zod';
import { echo, originLabel, type SettingOrigin } from './setting-checks.js';
import { UserError } from '../contract/user-error.js';

/** `shell` in config.json: `{ "network": true }` lets commands use the network. */
export const ShellFileSettings = z
  .object({ network: z.boolean().optional().describe('Whether shell commands may use the network (default false).') })
  .passthrough();
export type ShellFileSettings = z.infer<typeof ShellFileSettings>;

/** How the shell tool's commands run. */
export interface ShellSettings {
  /**
   * Commands may use the network: off by default (`ZHIXING_SHELL_NETWORK=1` or `"shell": {"network": true}`
   * turn it on). A command on the machine's network reaches every service listening on it, this
   * server's own API included, through which it could rewrite the rules it runs under.
   */
  network: boolean;
  /** The environment the assistant was started with: commands get it with every secret taken out. */
  env: Record<string, string | undefined>;
}

const ON = new Set(['1', 'true', 'on', 'yes']);
const OFF = new Set(['0', 'false', 'off', 'no']);

export interface ShellSettingsInput {
  /** ZHIXING_SHELL_NETWORK from the layers, with where it came from. */
  value: string | undefined;
  origin: SettingOrigin;
  file: ShellFileSettings | undefined;
  configPath: string;
  env: Record<string, string | undefined>;
  warnings: string[];
}

/** Thrown for a value that is neither on nor off; the caller turns it into its own error type. */
export class ShellSettingError extends UserError<'shell_setting'> {
  override name = 'ShellSettingError';
  constructor(message: string, zh: string) {
    super('shell_setting', message, zh);
  }
}

/**
 * The shell's settings. A project's ./.env may turn the network off but not on: a cloned folder
 * must not undo the user's own choice to keep commands offline.
 */
export function readShellSettings(i: ShellSettingsInput): { settings: ShellSettings; origin: SettingOrigin } {
  const fromFile = i.file?.network;
  const fileOrigin: SettingOrigin =
    fromFile === undefined ? { from: 'default' } : { from: 'config-file', key: 'shell.network', path: i.configPath };
  const base = { settings: { network: fromFile ?? false, env: i.env }, origin: fileOrigin };
  if (i.value === undefined) return base;
  const lower = i.value.toLowerCase();
  if (!ON.has(lower) && !OFF.has(lower)) {
    const label = originLabel(i.origin, 'ZHIXING_SHELL_NETWORK');
    throw new ShellSettingError(
      `${label} must be 1 (commands may use the network) or 0 (they may not), not ${echo(i.value, 'value')}.`,
      `${label} 必须是 1（命令可以使用网络）或 0（不可以），现在是 ${echo(i.value, 'value')}。`,
    );
  }
  const network = ON.has(lower);
  if (network && !base.settings.network && i.origin.from === 'cwd-env') {
    i.warnings.push(
      `Ignored ZHIXING_SHELL_NETWORK=${i.value} in ./.env: a project's .env may keep shell commands off the network, not let them on it (set it in ${i.configPath} or the environment).`,
    );
    return base;
  }
  return { settings: { network, env: i.env }, origin: i.origin };
}
