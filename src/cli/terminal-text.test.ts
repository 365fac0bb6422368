import { describe, expect, it } from 'vitest';
import { plainText } from './terminal-text.js';

const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

describe('plainText', () => {
  it('leaves ordinary text, Chinese, tabs and line breaks alone', () => {
    const text = '你好，world\n\tindented — ✓ 16';
    expect(plainText(text)).toBe(text);
  });

  it.each([
    ['OSC 52 (sets the clipboard), BEL-terminated', 'a\x1b]52;c;ZWNobyBoaQ==\x07b', 'ab'],
    ['OSC 52, ST-terminated', 'a\x1b]52;c;ZWNobyBoaQ==\x1b\\b', 'ab'],
    ['OSC 0 (window title)', '\x1b]0;pwned\x07title', 'title'],
    ['OSC 8 hyperlink', '\x1b]8;;http://evil/\x1b\\click\x1b]8;;\x1b\\', 'click'],
    ['CSI colours and cursor moves', '\x1b[31mred\x1b[0m \x1b[2J\x1b[1;1Hx', 'red x'],
    ['DCS string', 'a\x1bPq#0;2;0;0;0\x1b\\b', 'ab'],
    ['single-character escapes', 'a\x1bcb\x1b7c', 'abc'],
    ['C1 CSI (0x9b) and OSC (0x9d)', 'a\x9b31mb\x9d0;t\x07c', 'a31mb0;tc'],
    ['backspace, carriage return, bell, NUL, DEL', 'sa\bfe\r\x07\x00x\x7f', 'safex'],
    ['an unterminated OSC at the end', 'ok\x1b]52;c;AAAA', 'ok'],
  ])('removes %s', (_name, input, expected) => {
    const out = plainText(input);
    expect(out).toBe(expected);
    expect(out).not.toMatch(CONTROLS);
  });

  it('turns CR LF into LF', () => {
    expect(plainText('a\r\nb')).toBe('a\nb');
  });

  it('leaves no sequence when one is split across streamed deltas', () => {
    const deltas = ['text \x1b', ']52;c;ZWNobw==', '\x07 more'];
    const out = deltas.map(plainText).join('');
    expect(out).not.toMatch(CONTROLS);
    expect(out).toBe('text ]52;c;ZWNobw== more');
  });

  it('strips every control character from random input', () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 200; i++) {
      const s = Array.from({ length: 40 }, () => String.fromCharCode(Math.floor(rand() * 0xb0))).join('');
      const out = plainText(s);
      expect(out).not.toMatch(CONTROLS);
    }
  });
});
