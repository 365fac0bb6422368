import { describe, expect, it } from 'vitest';
import { toToolOutput } from './results.js';

describe('MCP results as tool output', () => {
  it('joins text, and says what it left out', () => {
    const out = toToolOutput('s__t', {
      content: [{ type: 'text', text: 'a' }, { type: 'weird', x: 1 } as never, { type: 'text', text: 'b' }],
    });
    expect(out).toEqual({ output: 'a\n[content of type weird left out]\nb' });
  });

  it('answers something for an empty result', () => {
    expect(toToolOutput('s__t', { content: [] }).output).toBe('(no content)');
  });

  it('makes isError a ToolError, with a sentence when the server gave none', () => {
    expect(() => toToolOutput('s__t', { content: [{ type: 'text', text: 'bad path' }], isError: true })).toThrow(
      expect.objectContaining({ name: 'ToolError', message: 'bad path' }),
    );
    expect(() => toToolOutput('s__t', { content: [], isError: true })).toThrow(
      /s__t reported an error without saying what it was/,
    );
  });

  it('tells structured content beside no text, bounded', () => {
    const big = { rows: Array.from({ length: 5_000 }, (_, i) => ({ i, name: `row ${i}` })) };
    const out = toToolOutput('s__t', { content: [], structuredContent: big });
    expect(out.output.length).toBeLessThan(20_100);
    expect(out.output).toMatch(/structured content cut\]$/);
  });

  it('names attachments by kind and type, sized in the line the model reads', () => {
    const data = Buffer.alloc(3_000, 1).toString('base64');
    const out = toToolOutput('s__t', {
      content: [
        { type: 'audio', data, mimeType: 'audio/mpeg' },
        { type: 'image', data, mimeType: 'image/svg+xml' },
      ],
    });
    expect(out.output).toBe(
      '[audio: audio/mpeg, 2.9 KB, shown to the user]\n[image: image/svg+xml, 2.9 KB, shown to the user]',
    );
    expect(out.attachments!.map((a) => a.name)).toEqual(['s__t-audio-1.mpeg', 's__t-image-2.svg']);
  });
});
