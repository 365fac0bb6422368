import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createBus, type BusEvent } from '../bus/bus.js';
import { createStore, type Store } from '../store/store.js';
import { createPermissionService, type PermissionAsk, type PermissionServiceOptions } from './permission.js';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(() => {
  stores.splice(0).forEach((s) => s.close());
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

function storePath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'zhixing-permission-'));
  dirs.push(dir);
  return join(dir, 'z.db');
}

function openStore(path: string): Store {
  const store = createStore(path);
  stores.push(store);
  return store;
}

function setup(options: Partial<PermissionServiceOptions> = {}) {
  const bus = createBus();
  const events: BusEvent[] = [];
  bus.onAny((e) => events.push(e));
  let n = 0;
  const service = createPermissionService({ bus, newId: () => `per_${++n}`, ...options });
  return { service, events, bus };
}

const write = (target = '/ws/notes/a.txt', more: Partial<PermissionAsk> = {}): PermissionAsk => ({
  action: 'file.write',
  target,
  insideSandbox: true,
  tool: 'file_write',
  callId: 'call_1',
  sessionId: 'ses_1',
  turnId: 'trn_1',
  ...more,
});
const live = () => new AbortController().signal;
const asked = {
  type: 'permission.asked',
  seq: 1,
  id: 'per_1',
  sessionId: 'ses_1',
  turnId: 'trn_1',
  callId: 'call_1',
  tool: 'file_write',
  action: 'file.write',
  target: '/ws/notes/a.txt',
};

describe('the permission service', () => {
  it('allows inside the sandbox and refuses outside it, with or without --yes, asking no one', async () => {
    for (const autoApprove of [false, true]) {
      const { service, events } = setup({ autoApprove });
      expect(await service.ask(write('/home/u/.zhixing/workspace/a.txt'), { signal: live() })).toMatchObject({
        decision: 'allow',
      });
      expect(await service.ask(write('/etc/passwd', { insideSandbox: false }), { signal: live() })).toMatchObject({
        decision: 'deny',
      });
      expect(events).toEqual([]);
    }
  });

  it('asks for a tool whose rule is "ask", and "once" allows this call only', async () => {
    const { service, events } = setup();
    service.setRules({ file_write: 'ask' });
    const answer = service.ask(write(), { signal: live() });
    expect(events).toEqual([asked]);
    const { type: _type, seq: _seq, ...open } = asked;
    expect(service.pending()).toEqual([open]);
    expect(service.reply('per_1', 'once')).toBe(true);
    expect(await answer).toMatchObject({ decision: 'allow' });
    expect(events.at(-1)).toEqual({
      type: 'permission.replied',
      seq: 2,
      id: 'per_1',
      sessionId: 'ses_1',
      decision: 'once',
    });
    expect(service.pending()).toEqual([]);
    // The next call asks again.
    void service.ask(write(), { signal: live() });
    expect(service.pending().map((a) => a.id)).toEqual(['per_2']);
  });

  it('remembers "always" for the tool and target, in this process and in the store for the next', async () => {
    const path = storePath();
    const first = setup({
      decisions: openStore(path).permissionDecisions,
      rules: { file_write: 'ask' },
      now: () => 1_700_000_000_000,
    });
    const answer = first.service.ask(write(), { signal: live() });
    expect(first.service.reply('per_1', 'always')).toBe(true);
    expect(await answer).toMatchObject({ decision: 'allow' });
    expect(first.events.at(-1)).toMatchObject({ type: 'permission.replied', decision: 'always' });
    expect(await first.service.ask(write(), { signal: live() })).toMatchObject({ decision: 'allow' });
    // Another target of the same tool is still asked.
    void first.service.ask(write('/ws/notes/b.txt'), { signal: live() });
    expect(first.service.pending().map((a) => a.target)).toEqual(['/ws/notes/b.txt']);
    stores.splice(0).forEach((s) => s.close());

    const store = openStore(path);
    expect(store.permissionDecisions.list()).toEqual([
      { tool: 'file_write', pattern: '/ws/notes/a.txt', decision: 'allow', createdAt: 1_700_000_000_000 },
    ]);
    const next = setup({ decisions: store.permissionDecisions, rules: { file_write: 'ask' } });
    expect(await next.service.ask(write(), { signal: live() })).toMatchObject({ decision: 'allow' });
    expect(next.events).toEqual([]);
  });

  it('refuses on "deny", saying the user declined', async () => {
    const { service, events } = setup({ rules: { file_write: 'ask' } });
    const answer = service.ask(write(), { signal: live() });
    expect(service.reply('per_1', 'deny')).toBe(true);
    expect(await answer).toMatchObject({ decision: 'deny', refusal: 'declined' });
    expect(events.at(-1)).toEqual({
      type: 'permission.replied',
      seq: 2,
      id: 'per_1',
      sessionId: 'ses_1',
      decision: 'deny',
    });
  });

  it('withdraws an ask when its turn is aborted: refused as cancelled, and no longer answerable', async () => {
    const { service, events } = setup({ rules: { file_write: 'ask' } });
    const turn = new AbortController();
    const answer = service.ask(write(), { signal: turn.signal });
    turn.abort();
    expect(await answer).toMatchObject({ decision: 'deny', refusal: 'cancelled' });
    expect(events.map((e) => e.type === 'permission.replied' && e.decision)).toEqual([false, 'cancelled']);
    expect(service.pending()).toEqual([]);
    expect(service.reply('per_1', 'once')).toBe(false);
    // A turn already stopped asks no one.
    expect(await service.ask(write(), { signal: turn.signal })).toMatchObject({
      decision: 'deny',
      refusal: 'cancelled',
    });
    expect(events).toHaveLength(2);
  });

  it('with --yes answers an ask "once" at once, and still announces it', async () => {
    const { service, events } = setup({ rules: { file_write: 'ask' }, autoApprove: true });
    expect(await service.ask(write(), { signal: live() })).toMatchObject({ decision: 'allow' });
    expect(events).toEqual([
      asked,
      { type: 'permission.replied', seq: 2, id: 'per_1', sessionId: 'ses_1', decision: 'once' },
    ]);
    expect(service.pending()).toEqual([]);
  });

  it('lets deny win over --yes, over an earlier "always", and over an ask rule outside the sandbox', async () => {
    const path = storePath();
    const store = openStore(path);
    const first = setup({ decisions: store.permissionDecisions, rules: { file_write: 'ask' } });
    const answer = first.service.ask(write(), { signal: live() });
    first.service.reply('per_1', 'always');
    await answer;

    const { service, events } = setup({
      decisions: store.permissionDecisions,
      rules: { file_write: 'deny' },
      autoApprove: true,
    });
    expect(await service.ask(write(), { signal: live() })).toMatchObject({ decision: 'deny' });
    service.setRules({ file_write: 'ask' });
    expect(await service.ask(write('/etc/passwd', { insideSandbox: false }), { signal: live() })).toMatchObject({
      decision: 'deny',
    });
    expect(events).toEqual([]);
  });

  it('answers false for an unknown id or one answered already, and lists open asks by session', async () => {
    const { service } = setup({ rules: { file_write: 'ask' } });
    expect(service.reply('per_nope', 'once')).toBe(false);
    void service.ask(write(), { signal: live() });
    void service.ask(write('/ws/b.txt', { sessionId: 'ses_2', callId: 'call_2' }), { signal: live() });
    expect(service.pending('ses_2').map((a) => a.id)).toEqual(['per_2']);
    expect(service.pending().map((a) => a.id)).toEqual(['per_1', 'per_2']);
    expect(service.reply('per_1', 'deny')).toBe(true);
    expect(service.reply('per_1', 'once')).toBe(false);
    expect(service.pending().map((a) => a.id)).toEqual(['per_2']);
  });

  it("gives a tool call an ask that carries the call's ids, which the tool cannot change", async () => {
    const { service, events } = setup({ rules: { file_write: 'ask' } });
    const call = service.askFor({
      tool: 'file_write',
      callId: 'call_9',
      sessionId: 'ses_9',
      turnId: 'trn_9',
      signal: live(),
    });
    const decision = call.ask({
      action: 'file.write',
      target: '/ws/x',
      insideSandbox: true,
      tool: 'calculator',
      callId: 'forged',
    });
    expect(events[0]).toMatchObject({ tool: 'file_write', callId: 'call_9', sessionId: 'ses_9', turnId: 'trn_9' });
    service.reply('per_1', 'deny');
    expect(await decision).toBe('deny');
    expect(call.refusal?.()).toBe('declined');
  });
});

describe('the permission service under rules over what calls touch', () => {
  const shell = (command: string, parts: PermissionAsk['parts'], more: Partial<PermissionAsk> = {}): PermissionAsk => ({
    action: 'shell.run',
    target: command,
    parts,
    insideSandbox: true,
    tool: 'shell',
    callId: 'call_1',
    sessionId: 'ses_1',
    turnId: 'trn_1',
    ...more,
  });
  const curlDenied = { shell: { 'curl *': 'deny', '*': 'allow' } } as const;

  it('denies a command line with a denied part, and records each part and the rule', async () => {
    const { service, events } = setup({ rules: curlDenied });
    const answer = await service.ask(shell('ls && curl x', [{ text: 'ls' }, { text: 'curl x' }]), { signal: live() });
    expect(answer).toEqual({
      decision: 'deny',
      record: {
        action: 'shell.run',
        target: 'ls && curl x',
        decision: 'deny',
        by: 'rule',
        rule: 'shell › curl *',
        parts: [
          { text: 'ls', decision: 'allow', rule: 'shell › *' },
          { text: 'curl x', decision: 'deny', rule: 'shell › curl *' },
        ],
      },
    });
    expect(events).toEqual([]);
  });

  it("keeps a bounded piece of each part's text: a wrapper repeated many times is not stored many times over", async () => {
    const { service } = setup({ rules: curlDenied });
    // `nice nice … curl x`: each wrapper is a part holding the rest of the line.
    const words = [...Array.from({ length: 40 }, () => 'nice'), 'curl', 'x'.repeat(5_000)];
    const parts = words.slice(0, 41).map((_w, i) => ({ text: words.slice(i).join(' ') }));
    const answer = await service.ask(shell(words.join(' '), parts), { signal: live() });
    expect(answer.decision).toBe('deny');
    expect(answer.record.target).toBe(words.join(' '));
    expect(answer.record.parts).toHaveLength(41);
    expect(answer.record.parts!.at(-1)).toMatchObject({ text: expect.stringMatching(/^curl x+…$/), decision: 'deny' });
    expect(JSON.stringify(answer.record.parts).length).toBeLessThan(41 * 400);
  });

  it('--yes approves an ask, but refuses one only a person may approve, saying why, and announces nothing', async () => {
    const { service, events } = setup({ rules: curlDenied, autoApprove: true });
    const opaque = shell('python3 -c x', [{ text: 'python3 -c x', opaque: 'python3 -c runs code given inline' }]);
    const refused = await service.ask(opaque, { signal: live() });
    expect(refused.decision).toBe('deny');
    expect(refused.refusal).toBe('needs-person');
    expect(refused.record).toMatchObject({
      by: 'yes',
      reason: 'only a person may approve this: python3 -c runs code given inline',
      parts: [{ decision: 'ask', needsPerson: true }],
    });
    expect(events).toEqual([]);
    // Without a deny among the rules the same line is an ordinary ask, which --yes approves.
    const open = setup({ rules: { shell: { '*': 'allow' } }, autoApprove: true });
    expect(await open.service.ask(opaque, { signal: live() })).toMatchObject({
      decision: 'allow',
      record: { by: 'yes' },
    });
    expect(open.events.map((e) => e.type)).toEqual(['permission.asked', 'permission.replied']);
  });

  it('--yes does not approve a person-only request, even where the rules allow it', async () => {
    // The turn's trust record lifts a call that could carry data out after outside text came in.
    const { service, events } = setup({ rules: { file_write: 'allow' }, autoApprove: true });
    const why = 'outside content entered this turn';
    const refused = await service.ask(write(undefined, { mustAsk: why, personOnly: true }), { signal: live() });
    expect(refused).toMatchObject({
      decision: 'deny',
      refusal: 'needs-person',
      record: { by: 'yes', reason: `only a person may approve this: ${why}` },
    });
    expect(events).toEqual([]);
    // Without personOnly the same must-ask is an ordinary ask, which --yes approves.
    expect(await service.ask(write(undefined, { mustAsk: why }), { signal: live() })).toMatchObject({
      decision: 'allow',
      record: { by: 'yes' },
    });
  });

  it('a person may still approve what --yes may not', async () => {
    const { service } = setup({ rules: curlDenied });
    const answer = service.ask(shell('sh x.sh', [{ text: 'sh x.sh', opaque: 'a script' }]), { signal: live() });
    // The ask shows each command, how the rules took it, and why it needs a person.
    expect(service.pending()[0]).toMatchObject({
      parts: [{ text: 'sh x.sh', decision: 'ask', rule: 'shell › *', opaque: 'a script' }],
      reason: 'a script',
      needsPerson: true,
    });
    service.reply('per_1', 'once');
    expect(await answer).toMatchObject({ decision: 'allow', record: { by: 'user' } });
  });

  it('"always" for a shell ask keeps one pattern per asking part, in the store, and applies it to those parts only', async () => {
    const path = storePath();
    const store = openStore(path);
    const rules = { shell: { 'ls*': 'allow', '*': 'ask' } } as const;
    const first = setup({ decisions: store.permissionDecisions, rules, now: () => 5 });
    const line = shell('ls && make && npm test', [{ text: 'ls' }, { text: 'make' }, { text: 'npm test' }]);
    const answer = first.service.ask(line, { signal: live() });
    first.service.reply('per_1', 'always');
    expect(await answer).toMatchObject({ decision: 'allow', record: { by: 'user' } });
    expect(store.permissionDecisions.list()).toEqual([
      { tool: 'shell', pattern: 'make', decision: 'allow', createdAt: 5 },
      { tool: 'shell', pattern: 'npm test', decision: 'allow', createdAt: 5 },
    ]);
    const next = setup({ decisions: store.permissionDecisions, rules });
    expect(await next.service.ask(shell('make', [{ text: 'make' }]), { signal: live() })).toMatchObject({
      decision: 'allow',
      record: { by: 'remembered' },
    });
    void next.service.ask(shell('make install', [{ text: 'make install' }]), { signal: live() });
    expect(next.service.pending().map((a) => a.target)).toEqual(['make install']);
    expect(next.service.remembered().map((r) => r.pattern)).toEqual(['make', 'npm test']);
    expect(next.service.forget('shell', 'make')).toBe(true);
    expect(next.service.forget('shell', 'make')).toBe(false);
    expect(store.permissionDecisions.list().map((r) => r.pattern)).toEqual(['npm test']);
    // A configured deny still beats a remembered allow.
    const denied = setup({ decisions: store.permissionDecisions, rules: { shell: { 'npm *': 'deny' } } });
    expect(await denied.service.ask(shell('npm test', [{ text: 'npm test' }]), { signal: live() })).toMatchObject({
      decision: 'deny',
      record: { by: 'rule' },
    });
  });

  it('lists, checks, saves and applies rules; bad rules are refused whole and nothing is saved', async () => {
    const saved: unknown[] = [];
    const { service } = setup({ rules: { web_fetch: 'ask' }, saveRules: (r) => saved.push(r) });
    expect(service.rules()).toEqual({ web_fetch: 'ask' });
    expect(service.effective()).toEqual({ shell: 'ask', 'browser_*': 'ask', '*__*': 'ask', web_fetch: 'ask' });
    expect(() => service.setRules({ shell: { 'curl *': 'nope' } } as never)).toThrow(
      /The permission rules were not saved: "shell" the pattern "curl \*" must be set to "allow", "ask" or "deny"\./,
    );
    expect(saved).toEqual([]);
    expect(service.rules()).toEqual({ web_fetch: 'ask' });
    service.setRules({ file_write: { 'secret/*': 'deny', '*': 'allow' } });
    expect(saved).toEqual([{ file_write: { 'secret/*': 'deny', '*': 'allow' } }]);
    const r = await service.ask(write('/ws/secret/k', { aliases: ['secret/k'] }), { signal: live() });
    expect(r).toMatchObject({ decision: 'deny', record: { rule: 'file_write › secret/*' } });
    // A save that fails leaves the rules in effect as they were.
    const failing = setup({
      saveRules: () => {
        throw new Error('disk full');
      },
    });
    expect(() => failing.service.setRules({ file_write: 'deny' })).toThrow('disk full');
    expect(failing.service.rules()).toEqual({});
  });
});
