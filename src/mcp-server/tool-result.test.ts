import { describe, expect, it } from 'vitest';
import { ToolError } from '../contract/tool-error.js';
import { fromCallToolResult } from './subprocess-tools.js';
import { toCallToolResult } from './tool-result.js';

const WORKSPACE = '/home/u/.zhixing/workspace';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('a tool result as MCP content, and back', () => {
  it('puts the text first, images and audio as themselves, other bytes embedded, workspace files as links', () => {
    const result = toCallToolResult(
      {
        ok: true,
        output: 'chart drawn',
        input: {},
        ms: 1,
        title: 'chart',
        metadata: { rows: 3 },
        attachments: [
          { name: 'chart.png', mimeType: 'image/png', size: 68, data: PNG },
          { name: 'hello.wav', mimeType: 'audio/wav', size: 4, data: 'UklGRg==' },
          { name: 'data.bin', mimeType: 'application/octet-stream', size: 3, data: 'AAEC' },
          { name: 'report.pdf', mimeType: 'application/pdf', size: 1000, path: 'out/report #1.pdf' },
        ],
      },
      WORKSPACE,
    );
    expect(result.isError).toBeUndefined();
    expect(result.content).toEqual([
      { type: 'text', text: 'chart drawn' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
      {
        type: 'resource',
        resource: { uri: 'attachment:///data.bin', mimeType: 'application/octet-stream', blob: 'AAEC' },
      },
      {
        type: 'resource_link',
        uri: 'file:///home/u/.zhixing/workspace/out/report%20%231.pdf',
        name: 'report.pdf',
        mimeType: 'application/pdf',
        size: 1000,
      },
    ]);
    expect(result._meta?.['zhixing/card']).toEqual({
      title: 'chart',
      metadata: { rows: 3 },
      attachments: ['chart.png', 'hello.wav', 'data.bin', 'report.pdf'],
    });
    // What --mcp makes of it again is what the tool returned.
    expect(fromCallToolResult(result, WORKSPACE)).toEqual({
      output: 'chart drawn',
      title: 'chart',
      metadata: { rows: 3 },
      attachments: [
        { name: 'chart.png', mimeType: 'image/png', data: PNG },
        { name: 'hello.wav', mimeType: 'audio/wav', data: 'UklGRg==' },
        { name: 'data.bin', mimeType: 'application/octet-stream', data: 'AAEC' },
        { name: 'report.pdf', mimeType: 'application/pdf', path: 'out/report #1.pdf' },
      ],
    });
  });

  it('makes a failure isError with its reason, and --mcp turns it back into the same failure', () => {
    const result = toCallToolResult(
      { ok: false, output: 'Error: there is no item 3', input: { id: 3 }, ms: 1 },
      WORKSPACE,
    );
    expect(result).toEqual({ content: [{ type: 'text', text: 'Error: there is no item 3' }], isError: true });
    expect(() => fromCallToolResult(result, WORKSPACE)).toThrow(new ToolError('there is no item 3'));
  });

  it('keeps no link a server says lies outside the workspace', () => {
    const out = fromCallToolResult(
      {
        content: [
          { type: 'text', text: 'x' },
          { type: 'resource_link', uri: 'file:///etc/passwd', name: 'passwd' },
          { type: 'resource_link', uri: 'file:///home/u/.zhixing/workspace/../config.json', name: 'c' },
        ],
      },
      WORKSPACE,
    );
    expect(out).toEqual({ output: 'x' });
  });
});
