import { describe, expect, it } from 'vitest';
import { createOutputBuffer } from './output-buffer.js';

const note = (cut: number) => `[${cut} cut]`;

describe('the output kept of a command', () => {
  it('keeps short output whole, however it arrives in chunks', () => {
    const b = createOutputBuffer(16, 16);
    const text = '你好，世界 hello';
    const bytes = Buffer.from(text);
    for (let i = 0; i < bytes.length; i += 3) b.push(bytes.subarray(i, i + 3));
    expect(b.result(note)).toEqual({ text, totalBytes: bytes.length, cutBytes: 0 });
  });

  it('keeps the head and the tail of long output, with a note saying how much of the middle went', () => {
    const b = createOutputBuffer(100, 100);
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${i}\n`).join('');
    for (let i = 0; i < lines.length; i += 777) b.push(Buffer.from(lines.slice(i, i + 777)));
    const r = b.result(note);
    expect(r.totalBytes).toBe(lines.length);
    expect(r.cutBytes).toBe(lines.length - 200);
    expect(r.text.startsWith(lines.slice(0, 100))).toBe(true);
    expect(r.text.endsWith(lines.slice(-100))).toBe(true);
    expect(r.text).toContain(`\n[${lines.length - 200} cut]\n`);
  });

  it('never splits a character where it cuts', () => {
    const b = createOutputBuffer(10, 10);
    // Three-byte characters: 10 bytes end inside the fourth, and the tail starts inside one.
    b.push(Buffer.from('汉'.repeat(40)));
    const r = b.result(note);
    expect(r.text).not.toContain('\ufffd');
    const [head, , tail] = r.text.split('\n');
    expect(head).toBe('汉汉汉');
    expect(tail).toBe('汉汉汉');
    expect(r.cutBytes).toBe(120 - 18);
  });

  it('tells the last non-empty line for progress', () => {
    const b = createOutputBuffer();
    b.push(Buffer.from('step 1\nstep 2\n\n'));
    expect(b.lastLine()).toBe('step 2');
    b.push(Buffer.from('50%\r60%\r'));
    expect(b.lastLine()).toBe('60%');
  });
});
