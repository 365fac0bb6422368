// A command the shell runs must not reach the server's API, which edits the rules it runs under,
// answers its asks and reads every session: by default it has no network, the loopback included.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startTestServer, type TestServer } from './support/http.js';
import { bwrapWorks } from './support/shell.js';

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
  const r = await request(t.port, `/api/sessions/${session}/chat`, {
    method: 'POST',
    body: { message: `run \`${command}\`` },
  });
  return JSON.parse(r.body).actions[0];
}

describe.skipIf(!bwrapWorks())('the API seen from a sandboxed command', () => {
  it('is out of reach by default: the command has no network, so it cannot rewrite the rules', async () => {
    const body = JSON.stringify({ rules: { shell: 'allow' } });
    const put = `printf 'PUT /api/permissions HTTP/1.1\\r\\nHost: 127.0.0.1:${t.port}\\r\\nContent-Type: application/json\\r\\nContent-Length: ${body.length}\\r\\nConnection: close\\r\\n\\r\\n${body}' > /dev/tcp/127.0.0.1/${t.port}; echo "exit $?"`;
    const action = await runCommand(put);
    expect(action).toMatchObject({ ok: true, output: expect.stringMatching(/Connection refused[\s\S]*exit 1\n$/) });
    expect(JSON.parse(readFileSync(join(t.home, 'config.json'), 'utf8'))).toEqual(CONFIG);
    expect(t.app.permission.rules()).toEqual(CONFIG.permissions);
    // A client outside the sandbox still gets its answers.
    expect((await request(t.port, '/api/health')).status).toBe(200);
  });
});
