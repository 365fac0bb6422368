import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJsonSchemaTool } from './json-schema-tool.js';
import { createToolRegistry } from './registry.js';
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
  it('checks arguments against the schema and says what is wrong', () => {
    const tool = sum();
    expect(tool.check({ a: 1, b: 2 })).toEqual({ ok: true, value: { a: 1, b: 2 } });
    const missing = tool.check({ a: 1 });
    expect(missing.ok).toBe(false);
    expect(!missing.ok && missing.message).toMatch(/must have required property 'b'/);
    const wrong = tool.check({ a: 'x', b: 2, c: 3 });
    expect(!wrong.ok && wrong.message).toMatch(/a: must be number/);
    expect(!wrong.ok && wrong.message).toMatch(/additional properties \(c\)/);
    expect(tool.check([1, 2]).ok).toBe(false);
    expect(tool.check(null).ok).toBe(false);
  });

  it('reads 2020-12 schemas (the MCP default) and shows the model an object schema without the dialect', () => {
    const tool = defineJsonSchemaTool({
      name: 't', description: 'd', source: 'mcp:x',
      inputSchema: { type: 'object', properties: { items: { type: 'array', prefixItems: [{ type: 'string' }], items: false } } },
      execute: () => 'ok',
    });
    expect(tool.check({ items: ['a'] }).ok).toBe(true);
    expect(tool.check({ items: ['a', 'b'] }).ok).toBe(false);
    expect(sum().spec.parameters).not.toHaveProperty('$schema');
    const bare = defineJsonSchemaTool({ name: 'u', description: '', source: 'mcp:x', inputSchema: { type: 'object' }, execute: () => '' });
    expect(bare.spec.parameters).toEqual({ type: 'object', properties: {} });
  });

  it('lets a schema ajv cannot compile through, for the server to judge', () => {
    const tool = defineJsonSchemaTool({ name: 'v', description: '', source: 'mcp:x', inputSchema: { type: 'object', properties: { a: { $ref: '#/nowhere' } } }, execute: () => '' });
    expect(tool.check({ a: 1 }).ok).toBe(true);
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

  it('replaces and removes a source as a whole, and never takes over another source\'s name', () => {
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
