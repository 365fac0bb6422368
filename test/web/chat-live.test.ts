/**
 * Turns while they run, in a real Chromium: stopping one (button and Esc), reloading the page in the
 * middle of one, and two chats answering at once.
 */
import type { Page } from 'playwright-core';
import { afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/tools/tool.js';
import { ToolError } from '../../src/contract/tool-error.js';
import { useBrowser } from '../support/browser.js';
import {
  lastReply,
  sendMessage,
  sessionIdOf,
  slowly,
  startWithModel,
  turnEnded,
  watchText,
  type ModelSetup,
} from '../support/chat-page.js';
import { request } from '../support/http.js';
import { textReply, toolCallsReply } from '../support/openai-server.js';

// Used in code that runs in the page, which the Node typecheck (no DOM types) does not know.
declare const document: any, window: any, MutationObserver: any;

const browser = useBrowser();
let setup: ModelSetup | undefined;
afterEach(async () => {
  await setup?.close();
  setup = undefined;
});

/** A reply of `words` numbered words, so any part of it shown twice or out of order shows. */
const counting = (label: string, words: number) =>
  Array.from({ length: words }, (_, i) => `${label}${i + 1}`).join(' ');
/** The text of the last assistant message's Markdown, as the page has it now. */
const replyText = (page: Page) =>
  page.evaluate(
    () => [...document.querySelectorAll('article.msg-assistant .markdown')].at(-1)?.textContent?.trim() ?? '',
  );
/** Opens a chat from the sidebar; resolves once its address and its own first message show (the last chat stays in view while it loads). */
async function openChat(page: Page, id: string, firstMessage: string): Promise<void> {
  await page.locator(`li.session[data-session="${id}"] .session-open`).click();
  await page.waitForURL((url) => url.pathname === `/s/${id}`);
  await page.waitForFunction((text) => document.querySelector('article.msg-user')?.textContent === text, firstMessage);
}
const sessionStatus = async (id: string) =>
  (await request(setup!.server.port, `/api/sessions/${id}`)).json().status as string;

for (const how of ['the Stop button', 'the Esc key'] as const) {
  it(`${how} stops a running turn: it ends saying so once, keeps what came, and the chat goes on`, async () => {
    setup = await startWithModel();
    // About twenty seconds of reply: only a stop ends it in time.
    setup.model.enqueue(slowly(textReply(counting('w', 100)), 200), textReply('After the stop, a new answer.'));
    const { page, expectNoErrors } = await browser.openPage(`${setup.server.url}/`);
    await page.locator('#composer').waitFor();
    await sendMessage(page, 'Count slowly.');
    await page.waitForFunction(() =>
      /w3\b/.test(document.querySelector('article.msg-assistant .markdown')?.textContent ?? ''),
    );
    const id = await sessionIdOf(page);
    expect(await page.locator('button.send.stop').count()).toBe(1);
    expect(await page.locator('button.send[type=submit]').count()).toBe(0);
    expect(await page.locator('.typing').count()).toBe(1);
    expect(await sessionStatus(id)).toBe('busy');

    const started = Date.now();
    if (how === 'the Stop button') await page.locator('button.send.stop').click();
    else await page.keyboard.press('Escape');
    await turnEnded(page, 1, 5000);
    expect(Date.now() - started).toBeLessThan(5000);

    // The turn's own reply says it stopped (and what was done); no second notice repeats it.
    expect(await lastReply(page).innerText()).toContain('Stopped as you asked.');
    expect(await page.locator('.notice').count()).toBe(0);
    expect(await page.locator('button.send[type=submit]').count()).toBe(1);
    expect(await page.locator('button.send.stop').count()).toBe(0);
    expect(await page.locator(`li.session[data-session="${id}"] [data-running]`).count()).toBe(0);
    expect(await sessionStatus(id)).toBe('idle');
    // What had come stays, and nothing more comes.
    const kept = await page.locator('article.msg-assistant .markdown').first().innerText();
    expect(kept).toMatch(/^w1 w2 w3\b/);
    expect(kept).not.toContain('w100');
    await page.waitForTimeout(600);
    expect(await page.locator('article.msg-assistant .markdown').first().innerText()).toBe(kept);

    // The chat goes on: the next message is answered, and the notice is gone.
    await sendMessage(page, 'Something else.');
    await turnEnded(page, 2);
    expect(await replyText(page)).toBe('After the stop, a new answer.');
    expect(await page.locator('.notice').count()).toBe(0);
    expect(setup.model.pending()).toBe(0);
    await expectNoErrors();
  });
}

it('Esc while no turn runs, or with a dialog open, stops nothing', async () => {
  setup = await startWithModel();
  setup.model.enqueue(textReply('Quick answer.'), slowly(textReply(counting('d', 30)), 100));
  const { page, expectNoErrors } = await browser.openPage(`${setup.server.url}/`);
  await page.locator('#composer').waitFor();
  await sendMessage(page, 'Quick one.');
  await turnEnded(page, 1);
  const aborts: string[] = [];
  page.on('request', (r) => r.url().endsWith('/abort') && aborts.push(r.url()));
  await page.keyboard.press('Escape');

  // A turn runs and the delete dialog is open: Esc closes the dialog, the turn goes on to its end.
  await sendMessage(page, 'Count a bit.');
  await page.waitForFunction(() =>
    /d2\b/.test([...document.querySelectorAll('article.msg-assistant .markdown')].at(-1)?.textContent ?? ''),
  );
  await page.locator('li.session [data-delete]').first().click();
  await page.locator('dialog.confirm[open]').waitFor();
  expect(await page.locator('button.send.stop').count()).toBe(1);
  await page.keyboard.press('Escape');
  await page.locator('dialog.confirm[open]').waitFor({ state: 'detached' });
  await turnEnded(page, 2);
  expect(await replyText(page)).toBe(counting('d', 30));
  expect(await page.locator('.notice').count()).toBe(0);
  expect(aborts).toEqual([]);
  await expectNoErrors();
});

it('a reload in the middle of a turn shows the history, then the rest of the reply, none of it twice', async () => {
  setup = await startWithModel();
  const full = counting('r', 60);
  setup.model.enqueue(slowly(textReply(full), 120));
  const { page, expectNoErrors } = await browser.openPage(`${setup.server.url}/`);
  await page.locator('#composer').waitFor();
  await sendMessage(page, 'Count to sixty.');
  await page.waitForFunction(() =>
    /r4\b/.test(document.querySelector('article.msg-assistant .markdown')?.textContent ?? ''),
  );
  const id = await sessionIdOf(page);

  await page.reload();
  expect(new URL(page.url()).pathname).toBe(`/s/${id}`);
  await page.locator('article.msg-user').waitFor();
  expect(await page.locator('article.msg-user').allInnerTexts()).toEqual(['Count to sixty.']);
  // Still running, and shown so: the typing dots, the Stop button, the sidebar's dot.
  await page.locator('.typing').waitFor();
  expect(await page.locator('button.send.stop').count()).toBe(1);
  await page.locator(`li.session[data-session="${id}"] [data-running]`).waitFor();

  const seen = await watchText(
    () => replyText(page),
    (text) => text.endsWith('r60'),
  );
  // It went on growing after the reload, from where it was.
  expect(seen.length).toBeGreaterThanOrEqual(3);
  expect(seen[0]!.length).toBeLessThan(full.length);
  for (const [i, text] of seen.entries()) if (text) expect(full.startsWith(text), `step ${i}: ${text}`).toBe(true);
  await turnEnded(page, 1);
  // The reply exactly once: one assistant message, no piece doubled.
  expect(await page.locator('article.msg-assistant').count()).toBe(1);
  expect(await lastReply(page).innerText()).toBe(full);
  expect(await page.locator(`li.session[data-session="${id}"] [data-running]`).count()).toBe(0);
  // And the same once more, from the stored history alone.
  await page.reload();
  await page.locator('article.msg-assistant').waitFor();
  expect(await lastReply(page).innerText()).toBe(full);
  expect(await page.locator('.typing').count()).toBe(0);
  await expectNoErrors();
});

it('two chats answer at once, each with its own reply, shown right when switching between them', async () => {
  setup = await startWithModel();
  const a = counting('alpha', 40);
  const b = counting('beta', 30);
  setup.model.enqueue(slowly(textReply(a), 100), slowly(textReply(b), 80));
  const { page, expectNoErrors } = await browser.openPage(`${setup.server.url}/`);
  await page.locator('#composer').waitFor();

  await sendMessage(page, 'First chat: count alpha.');
  await page.waitForFunction(() =>
    /alpha2\b/.test(document.querySelector('article.msg-assistant .markdown')?.textContent ?? ''),
  );
  const idA = await sessionIdOf(page);
  await page.locator('[data-new-chat]').click();
  await page.waitForURL((url) => url.pathname === '/');
  expect(await page.locator('article').count()).toBe(0);
  await sendMessage(page, 'Second chat: count beta.');
  await page.waitForFunction(() =>
    /beta2\b/.test(document.querySelector('article.msg-assistant .markdown')?.textContent ?? ''),
  );
  const idB = await sessionIdOf(page);
  expect(idB).not.toBe(idA);

  // Both run, and the sidebar says so.
  await page.locator(`li.session[data-session="${idA}"] [data-running]`).waitFor();
  await page.locator(`li.session[data-session="${idB}"] [data-running]`).waitFor();
  expect(await page.locator('li.session.active').getAttribute('data-session')).toBe(idB);

  // Back to the first while both still run: its own messages, still growing.
  await openChat(page, idA, 'First chat: count alpha.');
  expect(await page.locator('article.msg-user').allInnerTexts()).toEqual(['First chat: count alpha.']);
  const seenA = await watchText(
    () => replyText(page),
    (text) => text.endsWith('alpha40'),
  );
  expect(seenA.length).toBeGreaterThanOrEqual(2);
  for (const text of seenA) expect(a.startsWith(text), text).toBe(true);
  await turnEnded(page, 1);
  expect(await lastReply(page).innerText()).toBe(a);
  expect(await page.locator('.messages').innerText()).not.toContain('beta');

  // The second finishes too, while the first is open; its content is right when opened.
  await page
    .locator(`li.session[data-session="${idB}"] [data-running]`)
    .waitFor({ state: 'detached', timeout: 20_000 });
  await openChat(page, idB, 'Second chat: count beta.');
  await turnEnded(page, 1);
  expect(await page.locator('article.msg-user').allInnerTexts()).toEqual(['Second chat: count beta.']);
  expect(await lastReply(page).innerText()).toBe(b);
  expect(await page.locator('.messages').innerText()).not.toContain('alpha');

  // And the first again.
  await openChat(page, idA, 'First chat: count alpha.');
  await turnEnded(page, 1);
  expect(await lastReply(page).innerText()).toBe(a);
  expect(await page.locator('[data-running]').count()).toBe(0);
  expect(await sessionStatus(idA)).toBe('idle');
  expect(await sessionStatus(idB)).toBe('idle');
  await expectNoErrors();
});

it('the message sent from a new chat stays in view while the chat is made, until the answer', async () => {
  setup = await startWithModel();
  setup.model.enqueue(textReply('Hello to you.'));
  const { page, expectNoErrors } = await browser.openPage(`${setup.server.url}/`);
  await page.locator('#composer').waitFor();
  // A slow server: the new chat's history takes a while to come.
  await page.route('**/api/sessions/*/messages', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    await route.continue();
  });
  // Counts every change of the page after which the sent message is not shown.
  await page.evaluate(() => {
    window.__shown = false;
    window.__gone = 0;
    new MutationObserver(() => {
      const shown = [...document.querySelectorAll('article.msg-user')].some((a) => a.textContent === 'Hello there.');
      if (shown) window.__shown = true;
      else if (window.__shown) window.__gone++;
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  await sendMessage(page, 'Hello there.');
  await turnEnded(page, 1);
  expect(await lastReply(page).innerText()).toBe('Hello to you.');
  expect(await page.evaluate(() => window.__shown)).toBe(true);
  expect(await page.evaluate(() => window.__gone)).toBe(0);
  await expectNoErrors();
});

it('a running tool call shows a spinner, its progress and a ticking time, then ✓; a stopped one ends ✗', async () => {
  setup = await startWithModel();
  let finish: (() => void) | undefined;
  setup.server.app.tools.register(
    defineTool({
      name: 'slow_job',
      description: 'Takes a while.',
      parameters: z.object({ what: z.string() }),
      execute: (args, ctx) =>
        new Promise<string>((resolve, reject) => {
          ctx.progress(`working on ${args.what}…`);
          finish = () => resolve(`finished ${args.what}`);
          ctx.signal.addEventListener('abort', () => reject(new ToolError('Stopped before the end.')));
        }),
    }),
  );
  const call = (what: string) => toolCallsReply([{ id: `call_${what}`, name: 'slow_job', args: { what } }]);
  setup.model.enqueue(call('report'), textReply('The report is done.'), call('backup'));
  const { page, expectNoErrors } = await browser.openPage(`${setup.server.url}/`);
  await page.locator('#composer').waitFor();
  await sendMessage(page, 'Make the report.');

  const card = page.locator('.tool-card[data-tool="slow_job"]');
  await page.locator('.tool-card[data-state="running"]').waitFor();
  expect(await card.getAttribute('class')).toContain('is-running');
  expect(await card.locator('.tool-status .spinner').count()).toBe(1);
  expect(await card.locator('.tool-progress').innerText()).toBe('working on report…');
  const ms = async () => {
    const [, n, unit] = /^([\d.]+) (ms|s)$/.exec(await card.locator('.tool-ms').innerText()) ?? [];
    return Number(n) * (unit === 's' ? 1000 : 1);
  };
  const first = await ms();
  await page.waitForTimeout(600);
  expect(await ms()).toBeGreaterThan(first + 300);

  finish!();
  await turnEnded(page, 1);
  expect(await card.getAttribute('data-state')).toBe('completed');
  expect(await card.locator('.spinner').count()).toBe(0);
  expect(await card.locator('.tool-progress').count()).toBe(0);
  await card.locator('button.tool-head').click();
  expect(await card.locator('pre.tool-output').innerText()).toBe('finished report');
  expect(await lastReply(page).innerText()).toBe('The report is done.');

  // Stopped while it runs: the card ends ✗ with what the tool said.
  await sendMessage(page, 'Make the backup.');
  const second = page.locator('.tool-card[data-tool="slow_job"]').nth(1);
  await page.locator('.tool-card[data-state="running"]').waitFor();
  await page.locator('button.send.stop').click();
  await turnEnded(page, 2);
  expect(await second.getAttribute('data-state')).toBe('error');
  await second.locator('button.tool-head').click();
  expect(await second.locator('pre.tool-output').innerText()).toContain('Stopped before the end.');
  expect(await lastReply(page).innerText()).toContain('Stopped as you asked.');
  expect(await page.locator('.notice').count()).toBe(0);
  await expectNoErrors();
});
