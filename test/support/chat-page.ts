/**
 * What the browser tests of the chat share: a Zhixing server over a local OpenAI-format model, and
 * the few steps every chat test takes (send a message, wait for the turn to end, read the reply).
 */
import type { Locator, Page } from 'playwright-core';
import { startOpenAiServer, type OpenAiServer, type StreamedResponse } from './openai-server.js';
import { startTestServer, type TestServer } from './http.js';

// Used in code that runs in the page, which the Node typecheck (no DOM types) does not know.
declare const document: any;

export interface ModelSetup {
  model: OpenAiServer;
  server: TestServer;
  close(): Promise<void>;
}

/** Zhixing's server talking to a fresh local model server (the script is enqueued by each test). */
export async function startWithModel(): Promise<ModelSetup> {
  const model = await startOpenAiServer();
  const server = await startTestServer({
    env: {
      ZHIXING_BASE_URL: model.url,
      ZHIXING_API_KEY: 'sk-test-abcdefghijklmnop1234',
      ZHIXING_MODEL: 'test-model',
      ZHIXING_LANG: 'en',
    },
  });
  return {
    model,
    server,
    async close() {
      await server.close();
      await model.close();
    },
  };
}

/** A streamed reply slowed down: `delayMs` between its chunks. */
export const slowly = (reply: StreamedResponse, delayMs: number): StreamedResponse => ({ ...reply, delayMs });

/** Types a message into the composer and sends it with Enter. */
export async function sendMessage(page: Page, text: string): Promise<void> {
  const box = page.locator('#composer');
  await box.fill(text);
  await box.press('Enter');
}

/**
 * Waits until the open chat shows `users` sent messages and no turn runs: nothing is being sent, the
 * typing dots are gone and the Send button is back. Counting the messages keeps it from taking the
 * moment before a turn starts for its end.
 */
export async function turnEnded(page: Page, users: number, timeout = 20_000): Promise<void> {
  await page.waitForFunction(
    (n) =>
      document.querySelectorAll('article.msg-user:not(.msg-sending)').length === n &&
      !document.querySelector('.msg-sending, .typing, button.send.stop') &&
      document.querySelector('button.send[type=submit]') !== null,
    users,
    { timeout },
  );
}

/** The open chat's session id, from the address (`/s/<id>`). */
export async function sessionIdOf(page: Page): Promise<string> {
  await page.waitForURL(/\/s\/[^/]+$/);
  return decodeURIComponent(new URL(page.url()).pathname.slice('/s/'.length));
}

/** The text of the last assistant message. */
export const lastReply = (page: Page): Locator => page.locator('article.msg-assistant').last();

/** Polls `read` until it returns something `accept` takes; returns every distinct value seen on the way. */
export async function watchText(
  read: () => Promise<string>,
  accept: (text: string) => boolean,
  timeoutMs = 20_000,
): Promise<string[]> {
  const seen: string[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = await read();
    if (seen.at(-1) !== text) seen.push(text);
    if (accept(text)) return seen;
    if (Date.now() > deadline) throw new Error(`timed out; the text went through:\n${seen.join('\n---\n')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
