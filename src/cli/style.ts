/** Terminal colours for everything the CLI prints. */
export interface Style {
  dim(s: string): string;
  green(s: string): string;
  red(s: string): string;
  bold(s: string): string;
}

/** ANSI styling, or none at all under NO_COLOR or when the output is not a terminal. */
export function createStyle(enabled: boolean): Style {
  const wrap = (open: number, close: number) => (s: string) => (enabled ? `\x1b[${open}m${s}\x1b[${close}m` : s);
  return { dim: wrap(2, 22), green: wrap(32, 39), red: wrap(31, 39), bold: wrap(1, 22) };
}
