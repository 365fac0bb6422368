/**
 * A small terminal emulator for tests: what a program writes to its terminal, replayed into a grid
 * of cells the way xterm would (wide characters take two cells and wrap whole, pending wrap at the
 * last column, cursor movement, erasing), so a test asserts what the user sees and where the cursor is.
 * Its width rule is written apart from the product's, so the two check each other.
 */

const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}]/u;
const ZERO = /^\p{M}$/u;

export interface TerminalScreen {
  write(data: string): void;
  /** Every line shown so far, scrolled off the top or still on screen, trailing spaces removed. */
  transcript(): string;
  /** The rows on screen now. */
  rows(): string[];
  cursor(): { row: number; col: number };
  /** Whether the program has bracketed paste turned on. */
  pasteMode(): boolean;
}

export function createTerminalScreen(cols: number, height: number): TerminalScreen {
  const blank = () => Array.from({ length: cols }, () => ' ');
  let grid = Array.from({ length: height }, blank);
  const scrolled: string[] = [];
  let row = 0;
  let col = 0;
  let paste = false;
  let pending = '';

  const lineText = (cells: string[]) => cells.join('').replace(/\s+$/, '');
  const lineDown = () => {
    if (row < height - 1) return void (row += 1);
    scrolled.push(lineText(grid.shift()!));
    grid.push(blank());
  };
  const put = (ch: string) => {
    const w = ZERO.test(ch) ? 0 : WIDE.test(ch) ? 2 : 1;
    if (w === 0) {
      if (col > 0) grid[row]![col - 1] += ch;
      return;
    }
    if (col + w > cols) {
      col = 0;
      lineDown();
    }
    grid[row]![col] = ch;
    if (w === 2) grid[row]![col + 1] = '';
    col += w;
  };
  const csi = (params: string, final: string) => {
    const nums = params
      .replace(/^\?/, '')
      .split(';')
      .map((p) => Number(p) || 0);
    const n = Math.max(1, nums[0] ?? 0);
    const at = Math.min(col, cols - 1);
    if (final === 'A') [row, col] = [Math.max(0, row - n), at];
    else if (final === 'B') [row, col] = [Math.min(height - 1, row + n), at];
    else if (final === 'C') col = Math.min(cols - 1, at + n);
    else if (final === 'D') col = Math.max(0, at - n);
    else if (final === 'G') col = Math.min(cols - 1, n - 1);
    else if (final === 'H' || final === 'f')
      [row, col] = [Math.min(height - 1, n - 1), Math.min(cols - 1, Math.max(1, nums[1] ?? 1) - 1)];
    else if (final === 'K') {
      const from = nums[0] === 2 ? 0 : at;
      for (let c = nums[0] === 1 ? 0 : from; c < (nums[0] === 1 ? at + 1 : cols); c++) grid[row]![c] = ' ';
    } else if (final === 'J') {
      if (nums[0] === 2) grid = Array.from({ length: height }, blank);
      else {
        for (let c = at; c < cols; c++) grid[row]![c] = ' ';
        for (let r = row + 1; r < height; r++) grid[r] = blank();
      }
    } else if ((final === 'h' || final === 'l') && params === '?2004') paste = final === 'h';
  };

  return {
    write(data) {
      const text = pending + data;
      pending = '';
      const re = /\x1b\[([0-9;?]*)([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[^[\]]|\x1b$|\x1b\[[0-9;?]*$|[\s\S]/gu;
      for (let m = re.exec(text); m; m = re.exec(text)) {
        const s = m[0];
        if (s.startsWith('\x1b')) {
          if (m.index + s.length === text.length && (s === '\x1b' || /^\x1b\[[0-9;?]*$/.test(s))) pending = s;
          else if (m[2]) csi(m[1]!, m[2]);
        } else if (s === '\r') col = 0;
        else if (s === '\n') lineDown();
        else if (s === '\b') col = Math.max(0, Math.min(col, cols - 1) - 1);
        else if (s >= ' ' || s.codePointAt(0)! > 0x7f) put(s);
      }
    },
    transcript: () => [...scrolled, ...grid.map(lineText)].join('\n').replace(/\n+$/, ''),
    rows: () => grid.map(lineText),
    cursor: () => ({ row, col }),
    pasteMode: () => paste,
  };
}
