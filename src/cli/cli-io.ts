import type { Lang } from '../i18n.js';
import type { LiveStatus } from './live-status.js';
import type { CliText } from './messages.js';
import type { MarkdownOutput } from './printer.js';
import type { Style } from './style.js';

/** Where a CLI command writes, and in which words: one-shot runs, the REPL and the subcommands share it. */
export interface CliIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  style: Style;
  /** In the language the user writes in; with `follow`, the one they last wrote in. */
  text: CliText;
  /** The user wrote this line: the CLI's words follow its language (unless ZHIXING_LANG fixes one). */
  follow?: (line: string) => void;
  /** The language the CLI speaks now (it follows the user's, see `follow`). */
  lang?: () => Lang;
  /** On a terminal: the reply's Markdown rendered. */
  markdown?: MarkdownOutput;
  /** On a terminal: the spinner and tool lines on stderr. */
  live?: LiveStatus;
}
