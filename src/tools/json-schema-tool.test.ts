import { monitorEventLoopDelay } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJsonSchemaTool } from './json-schema-tool.js';
import { createToolRegistry } from './registry.js';
import { createSchemaChecker, type SchemaChecker } from './schema-checker.js';
import { defineTool } from './tool.js';
import { ctx } from '../../test/support/file-tools.js';

const sum = (source = 'mcp:everything', name = 'everything__get-sum') =>
  defineJsonSchemaTool({
    name,
    description: 'Returns the sum of two numbers',
    source,
    inputSchema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
      additionalProperties: false,
    },
    execute: (args) => String((args.a as number) + (args.b as number)),
  });

describe('tools described by JSON Schema', () => {
  it('checks arguments against the schema and says what is wrong', async () => {
    const tool = sum();
    expect(await tool.check({ a: 1, b: 2 })).toEqual({ ok: true, value: { a: 1, b: 2 } });
    const missing = await tool.check({ a: 1 });
    expect(missing.ok).toBe(false);
    expect(!missing.ok && missing.message).toMatch(/must have required property 'b'/);
    const wrong = await tool.check({ a: 'x', b: 2, c: 3 });
    expect(!wrong.ok && wrong.message).toMatch(/a: must be number/);
    expect(!wrong.ok && wrong.message).toMatch(/additional properties \(c\)/);
    expect((await tool.check([1, 2])).ok).toBe(false);
    expect((await tool.check(null)).ok).toBe(false);
  });

  it('reads 2020-12 schemas (the MCP default) and shows the model an object schema without the dialect', async () => {
    const tool = defineJsonSchemaTool({
      name: 't',
      description: 'd',
      source: 'mcp:x',
      inputSchema: {
        type: 'object',
        properties: { items: { type: 'array', prefixItems: [{ type: 'string' }], items: false } },
      },
      execute: () => 'ok',
    });
    expect((await tool.check({ items: ['a'] })).ok).toBe(true);
    expect((await tool.check({ items: ['a', 'b'] })).ok).toBe(false);
    expect(sum().spec.parameters).not.toHaveProperty('$schema');
    const bare = defineJsonSchemaTool({
      name: 'u',
      description: '',
      source: 'mcp:x',
      inputSchema: { type: 'object' },
      execute: () => '',
    });
    expect(bare.spec.parameters).toEqual({ type: 'object', properties: {} });
  });

  it('lets a schema ajv cannot compile through, for the server to judge', async () => {
    const tool = defineJsonSchemaTool({
      name: 'v',
      description: '',
      source: 'mcp:x',
      inputSchema: { type: 'object', properties: { a: { $ref: '#/nowhere' } } },
      execute: () => '',
    });
    expect((await tool.check({ a: 1 })).ok).toBe(true);
  });

  it('runs through the registry like any tool: invalid arguments are a failed call', async () => {
    const registry = createToolRegistry([sum()]);
    const good = await registry.run({ id: '1', name: 'everything__get-sum', arguments: '{"a":2,"b":3}' }, ctx());
    expect(good).toMatchObject({ ok: true, output: '5' });
    const bad = await registry.run({ id: '2', name: 'everything__get-sum', arguments: '{"a":2}' }, ctx());
    expect(bad.ok).toBe(false);
    expect(bad.output).toMatch(/^Error: invalid arguments for everything__get-sum: .*'b'/);
  });
});

describe('the registry by source', () => {
  const builtin = defineTool({ name: 'calc', description: '', parameters: z.object({}), execute: () => '' });

  it("replaces and removes a source as a whole, and never takes over another source's name", () => {
    const registry = createToolRegistry([builtin]);
    let changes = 0;
    const off = registry.onChange(() => changes++);
    const a = sum('mcp:a', 'a__get-sum');
    const clash = sum('mcp:a', 'calc');
    expect(registry.replaceSource('mcp:a', [a, clash])).toEqual(['a__get-sum']);
    expect(registry.get('calc')?.source).toBe('builtin');
    expect(changes).toBe(1);
    expect(registry.replaceSource('mcp:a', [a])).toEqual(['a__get-sum']);
    expect(changes).toBe(1);
    registry.replaceSource('mcp:a', [sum('mcp:a', 'a__other')]);
    expect(registry.names()).toEqual(['calc', 'a__other']);
    registry.removeSource('mcp:a');
    expect(registry.list().map((t) => t.source)).toEqual(['builtin']);
    expect(changes).toBe(3);
    off();
    registry.register(a);
    expect(changes).toBe(3);
  });
});

describe('a schema from a hostile server', () => {
  /** Runs `work` while watching the event loop: the longest it was held, in ms. */
  async function loopHeld<T>(work: () => T | Promise<T>): Promise<{ result: T; maxMs: number }> {
    const histogram = monitorEventLoopDelay({ resolution: 10 });
    histogram.enable();
    try {
      const result = await work();
      return { result, maxMs: histogram.max / 1e6 };
    } finally {
      histogram.disable();
    }
  }
  const tool = (inputSchema: Record<string, unknown>, checker?: SchemaChecker) =>
    defineJsonSchemaTool({
      name: 'evil__t',
      description: '',
      source: 'mcp:evil',
      inputSchema,
      checker,
      execute: () => 'ran',
    });

  it('checks a backtracking pattern in linear time, without holding the event loop', async () => {
    const t = tool({ type: 'object', properties: { q: { type: 'string', pattern: '^(a+)+$' } } });
    await t.check({ q: 'a' }); // the worker's start is not what is measured
    const { result, maxMs } = await loopHeld(() => t.check({ q: `${'a'.repeat(40)}!` }));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(/q: must match pattern/);
    expect(maxMs).toBeLessThan(200);
    expect((await t.check({ q: 'a'.repeat(40) })).ok).toBe(true);
  });

  it('refuses arguments whose check does not finish in time, and the event loop never waits on it', async () => {
    // oneOf over a recursive $ref: each level of nesting doubles ajv's work, whatever the engine.
    const schema = {
      type: 'object',
      $defs: { n: { type: 'object', properties: { x: { oneOf: [{ $ref: '#/$defs/n' }, { $ref: '#/$defs/n' }] } } } },
      properties: { x: { $ref: '#/$defs/n' } },
    };
    const checker = createSchemaChecker({ timeoutMs: 1_000 });
    try {
      let deep: Record<string, unknown> = {};
      for (let i = 0; i < 40; i++) deep = { x: deep };
      const t = tool(schema, checker);
      const { result, maxMs } = await loopHeld(() => t.check(deep));
      expect(result).toEqual({
        ok: false,
        message: expect.stringMatching(/took more than .* to check these arguments, so the call was not made/),
      });
      expect(maxMs).toBeLessThan(200);
      // The checker carries on with a fresh worker.
      expect((await t.check({ x: { x: {} } })).ok).toBe(false);
    } finally {
      await checker.close();
    }
  });

  it('keeps ECMA-262 meaning where RE2 differs, and lets RE2-less patterns run bounded', async () => {
    const t = tool({
      type: 'object',
      properties: {
        space: { type: 'string', pattern: '^a\\sb$' },
        dot: { type: 'string', pattern: '^a.b$' },
        backref: { type: 'string', pattern: '^(?<c>x)\\k<c>$' },
        ahead: { type: 'string', pattern: '^a(?=b)' },
        emoji: { type: 'string', pattern: '^\\u{1F600}$' },
      },
    });
    expect((await t.check({ space: 'a\u00a0b', dot: 'a😀b', backref: 'xx', ahead: 'ab', emoji: '😀' })).ok).toBe(true);
    const bad = await t.check({ space: 'a_b', dot: 'a\rb', backref: 'xk<c>', ahead: 'ac', emoji: 'x' });
    expect(!bad.ok && bad.message.split('; ').map((m) => m.split(':')[0])).toEqual([
      'space',
      'dot',
      'backref',
      'ahead',
      'emoji',
    ]);
  });
});
