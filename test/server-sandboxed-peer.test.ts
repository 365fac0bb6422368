// A command the shell runs shares the machine's loopback when its network is on. It must not reach
// the server's API, which edits the rules it runs under, answers its asks and reads every session.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startTestServer, type TestServer } from './support/http.js';
import { bwrapWorks, startCanary } from './support/shell.js';

const CONFIG = { permissions: { shell: { 'curl *': 'deny', '*': 'allow' } } };
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ config: CONFIG, env: { ZHIXING_LANG: 'en' } });
});
afterAll(async () => {
  await t.close();
});

/** One offline turn that hands the planner a command to run. */
async function runCommand(command: string): Promise<{ ok: boolean; output: string }> {
  const session = JSON.parse((await request(t.port, '/api/sessions', { method: 'POST', body: {} })).body).id as string;
  const r = await request(t.port, `/api/sessions/${session}/chat`, { method: 'POST', body: { message: `run \`${command}\`` } });
  return JSON.parse(r.body).actions[0];
}

describe.skipIf(!bwrapWorks())('the API seen from a sandboxed command', () => {
  it('refuses the command\'s connections, so it cannot rewrite the rules, while other clients are served', async () => {
    const body = JSON.stringify({ rules: { shell: 'allow' } });
    const put = (port: number) =>
      `printf 'PUT /api/permissions HTTP/1.1\\r\\nHost: 127.0.0.1:${port}\\r\\nContent-Type: application/json\\r\\nContent-Length: ${body.length}\\r\\nConnection: close\\r\\n\\r\\n${body}' > /dev/tcp/127.0.0.1/${port}; sleep 0.3; echo sent`;
    // The control: the same request reaches a server that is not ours.
    const canary = await startCanary();
    try {
      expect(await runCommand(put(canary.port))).toMatchObject({ ok: true, output: expect.stringMatching(/sent\n$/) });
      expect(canary.hits).toEqual(['/api/permissions']);
    } finally {
      await canary.close();
    }
    expect(await runCommand(put(t.port))).toMatchObject({ ok: true });
    expect(JSON.parse(readFileSync(join(t.home, 'config.json'), 'utf8'))).toEqual(CONFIG);
    expect(t.app.permission.rules()).toEqual(CONFIG.permissions);
    // A client outside the sandbox still gets its answers.
    expect((await request(t.port, '/api/health')).status).toBe(200);
    expect(JSON.parse((await request(t.port, '/api/permissions')).body).rules).toEqual(CONFIG.permissions);
  });
});
