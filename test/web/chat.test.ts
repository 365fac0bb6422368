/**
 * The chat in a real Chromium: a turn offline with its tool card, a reply streamed from a model
 * and rendered as Markdown, and a model's tool calls that succeed and fail.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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
import { startTestServer, type TestServer } from '../support/http.js';
import { textReply, toolCallsReply } from '../support/openai-server.js';

// Used in code that runs in the page, which the Node typecheck (no DOM types) does not know.
declare const document: any, navigator: any, Node: any;

const browser = useBrowser();

describe('offline, in Chinese', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a message over the 100,000-character limit is refused in the page, and no empty chat is left behind', async () => {
    const { page, expectNoErrors } = await browser.openPage(`${server.url}/`, { locale: 'zh-CN' });
    await page.locator('#composer').waitFor();
    const before = ((await (await fetch(`${server.url}/api/sessions`)).json()) as { sessions: unknown[] }).sessions
      .length;
    await page.locator('#composer').fill('a'.repeat(100_001));
    await page.locator('#composer').press('Enter');
    await page.locator('.toast-error').waitFor();
    expect(await page.locator('.toast-error').innerText()).toContain('消息太长');
    expect((await page.locator('#composer').inputValue()).length).toBe(100_001);
    expect(
      ((await (await fetch(`${server.url}/api/sessions`)).json()) as { sessions: unknown[] }).sessions.length,
    ).toBe(before);
    await expectNoErrors();
  });

  it('a calculation shows a finished calculator card, the answer, its own address and a sidebar entry', async () => {
    const { page, expectNoErrors } = await browser.openPage(`${server.url}/`, { locale: 'zh-CN' });
    await page.locator('#composer').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await sendMessage(page, '帮我算一下 (3+5)*2');
    await turnEnded(page, 1);

    const id = await sessionIdOf(page);
    const card = page.locator('.tool-card');
    await expect(card.count()).resolves.toBe(1);
    expect(await card.getAttribute('data-tool')).toBe('calculator');
    expect(await card.getAttribute('data-state')).toBe('completed');
    expect(await card.getAttribute('class')).toContain('is-completed');
    expect(await card.locator('.tool-status').getAttribute('aria-label')).toBe('完成');
    expect(await card.locator('.tool-status svg').count()).toBe(1);
    expect(await card.locator('.spinner').count()).toBe(0);
    expect(await card.locator('.tool-name').innerText()).toBe('calculator');
    expect(await card.locator('.tool-title').innerText()).toBe('(3+5)*2 = 16');
    expect(await card.locator('.tool-ms').innerText()).toMatch(/^\d+(\.\d+)? (毫秒|秒)$/);
    expect(await page.locator('article.msg-user').innerText()).toBe('帮我算一下 (3+5)*2');
    expect(await lastReply(page).locator('.markdown').innerText()).toContain('16');

    // The sidebar lists the chat, open, named after the message once the turn is over.
    const entry = page.locator(`li.session[data-session="${id}"]`);
    await expect(entry.getAttribute('class')).resolves.toContain('active');
    await page.waitForFunction(
      (sid) =>
        document.querySelector(`li.session[data-session="${sid}"] .session-title`)?.textContent?.includes('(3+5)*2'),
      id,
    );
    expect(await entry.locator('[data-running]').count()).toBe(0);
    expect(await page.locator('li.session').count()).toBe(1);
    await browser.screenshot(page, 'chat-calculator-desktop');

    // Opened and closed by a click…
    const head = card.locator('button.tool-head');
    expect(await head.getAttribute('aria-expanded')).toBe('false');
    expect(await card.locator('.tool-body').count()).toBe(0);
    await head.click();
    expect(await head.getAttribute('aria-expanded')).toBe('true');
    expect(await card.locator('pre.tool-input').innerText()).toBe(JSON.stringify({ expression: '(3+5)*2' }, null, 2));
    expect(await card.locator('pre.tool-output').innerText()).toBe('16');
    expect(await card.locator('.link-button').count()).toBe(0);
    await head.click();
    expect(await head.getAttribute('aria-expanded')).toBe('false');
    expect(await card.locator('.tool-body').count()).toBe(0);
    // …and by Enter on the focused header.
    await head.focus();
    await page.keyboard.press('Enter');
    expect(await head.getAttribute('aria-expanded')).toBe('true');
    expect(await card.locator('pre.tool-output').innerText()).toBe('16');
    await page.keyboard.press('Enter');
    expect(await head.getAttribute('aria-expanded')).toBe('false');
    await expectNoErrors();
  });

  it('other calculations, one failing, each get their own card in the same chat', async () => {
    const { page, expectNoErrors } = await browser.openPage(`${server.url}/`, { locale: 'zh-CN' });
    await page.locator('#composer').waitFor();
    const cases = [
      { ask: '三加五乘二等于多少', state: 'completed', title: '3+5*2 = 13', output: '13', reply: '13' },
      { ask: '算一下 2^10 - 24', state: 'completed', title: '2^10 - 24 = 1000', output: '1000', reply: '1000' },
      { ask: '帮我算一下 1/0', state: 'error', title: '1/0', output: 'Error: 除数不能为零', reply: '除数不能为零' },
    ];
    for (const [i, c] of cases.entries()) {
      await sendMessage(page, c.ask);
      await turnEnded(page, i + 1);
      const card = page.locator('.tool-card').nth(i);
      expect(await card.getAttribute('data-state')).toBe(c.state);
      expect(await card.getAttribute('class')).toContain(`is-${c.state}`);
      expect(await card.locator('.tool-title').innerText()).toBe(c.title);
      await card.locator('button.tool-head').click();
      expect(await card.locator('pre.tool-output').innerText()).toBe(c.output);
      expect(await lastReply(page).innerText()).toContain(c.reply);
    }
    expect(await page.locator('.tool-card').count()).toBe(cases.length);
    await expect(page.locator('.tool-card.is-error .tool-status').getAttribute('aria-label')).resolves.toBe('失败');
    // One chat for all three.
    expect(await page.locator('li.session').count()).toBeGreaterThanOrEqual(1);
    expect(await page.locator('li.session.active').count()).toBe(1);
    await expectNoErrors();
  });

  it('a long output is folded behind "show all", which unfolds it and folds it back', async () => {
    const { page, expectNoErrors } = await browser.openPage(`${server.url}/`, { locale: 'zh-CN' });
    await page.locator('#composer').waitFor();
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i + 1} of the long file`);
    await sendMessage(page, `write to notes/long.txt: ${lines.join('\n')}`);
    await turnEnded(page, 1);
    await sendMessage(page, 'read notes/long.txt');
    await turnEnded(page, 2);

    const card = page.locator('.tool-card[data-tool="file_read"]');
    expect(await card.getAttribute('data-state')).toBe('completed');
    await card.locator('button.tool-head').click();
    const output = card.locator('pre.tool-output');
    const folded = await output.innerText();
    expect(folded).toContain('line 1 of');
    expect(folded).not.toContain('line 40 of');
    expect(folded.split('\n').length).toBeLessThanOrEqual(13);
    expect(folded.endsWith('…')).toBe(true);
    const toggle = card.locator('.link-button');
    expect(await toggle.innerText()).toMatch(/^展开全部（\d+ 行）$/);

    await toggle.click();
    const full = await output.innerText();
    for (const line of lines) expect(full).toContain(line);
    expect(await toggle.innerText()).toBe('收起');
    await toggle.click();
    expect(await output.innerText()).toBe(folded);

    // A short file is shown whole, with nothing to unfold.
    await sendMessage(page, 'write hello to notes/short.txt');
    await turnEnded(page, 3);
    await sendMessage(page, 'read notes/short.txt');
    await turnEnded(page, 4);
    const short = page.locator('.tool-card[data-tool="file_read"]').last();
    await short.locator('button.tool-head').click();
    expect(await short.locator('pre.tool-output').innerText()).toContain('hello');
    expect(await short.locator('.link-button').count()).toBe(0);
    await expectNoErrors();
  });
});

describe('with a model', () => {
  let setup: ModelSetup | undefined;
  afterEach(async () => {
    await setup?.close();
    setup = undefined;
  });

  const MARKDOWN = [
    '## Steps to greet',
    '',
    '- open the **console**',
    '- run the code',
    '- read the answer',
    '',
    '```js',
    'const greeting = "hello";',
    'console.log(greeting);',
    '```',
    '',
    'That is all.',
  ].join('\n');
  const CODE = 'const greeting = "hello";\nconsole.log(greeting);';

  it('a streamed reply grows in place, then renders as Markdown with highlighted, copyable code', async () => {
    setup = await startWithModel();
    setup.model.enqueue(slowly(textReply(MARKDOWN), 40));
    const { page, expectNoErrors } = await browser.openPage(`${setup.server.url}/`);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: setup.server.url });
    await page.locator('#composer').waitFor();
    await sendMessage(page, 'How do I greet in JavaScript?');

    const seen = await watchText(
      () => page.evaluate(() => document.querySelector('article.msg-assistant')?.textContent ?? ''),
      (text) => text.includes('That is all.'),
    );
    // Several states of the text were seen on the way, and they grew.
    const partial = seen.filter((text) => text !== '' && !text.includes('That is all.'));
    expect(partial.length).toBeGreaterThanOrEqual(3);
    expect(partial[0]!.length).toBeLessThan(partial.at(-1)!.length);
    expect(partial.at(-1)!.length).toBeLessThan(seen.at(-1)!.length);
    await turnEnded(page, 1);

    const md = lastReply(page).locator('.markdown');
    expect(await md.locator('h2').innerText()).toBe('Steps to greet');
    expect(await md.locator('ul > li').allInnerTexts()).toEqual([
      'open the console',
      'run the code',
      'read the answer',
    ]);
    expect(await md.locator('li strong').innerText()).toBe('console');
    const block = md.locator('.code-block');
    expect(await block.count()).toBe(1);
    expect(await block.locator('.code-bar span').innerText()).toBe('js');
    // The fence's content, which ends with its newline.
    expect((await block.locator('code').innerText()).trimEnd()).toBe(CODE);
    expect(await block.locator('code.hljs span[class^="hljs-"]').count()).toBeGreaterThan(0);
    expect(await block.locator('.hljs-keyword').first().innerText()).toBe('const');
    expect(await block.locator('.hljs-string').first().innerText()).toBe('"hello"');
    expect(await md.locator('p').last().innerText()).toBe('That is all.');
    // The Markdown markers themselves are not shown.
    expect(await md.innerText()).not.toMatch(/##|```|\*\*/);
    await browser.screenshot(page, 'chat-markdown-code');

    const copy = block.locator('button.copy-code');
    expect(await copy.innerText()).toBe('Copy');
    await copy.click();
    await page.waitForFunction(() => document.querySelector('button.copy-code')?.textContent === 'Copied');
    // The code alone: not the language or the button's label.
    expect((await page.evaluate(() => navigator.clipboard.readText())).trimEnd()).toBe(CODE);
    // The label comes back.
    await page.waitForFunction(() => document.querySelector('button.copy-code')?.textContent === 'Copy', undefined, {
      timeout: 5000,
    });
    await expectNoErrors();
  });

  it("a model's calculator call ends ✓ before its text; a failing call ends ✗ with its error", async () => {
    setup = await startWithModel();
    setup.model.enqueue(
      toolCallsReply([{ id: 'call_calc', name: 'calculator', args: { expression: '12*(7-2)' } }], { splitArgs: true }),
      slowly(textReply('12*(7-2) is 60, worked out with the calculator.'), 100),
      toolCallsReply([{ id: 'call_done', name: 'todo_done', args: { id: 999 } }]),
      textReply('There is no todo 999.'),
    );
    const { page, expectNoErrors } = await browser.openPage(`${setup.server.url}/`);
    await page.locator('#composer').waitFor();
    await sendMessage(page, 'What is 12*(7-2)?');

    // The card is done while the text after it still streams in.
    const calc = page.locator('.tool-card[data-tool="calculator"]');
    const early = await page.waitForFunction(() => {
      const text = [...document.querySelectorAll('article.msg-assistant .markdown')].at(-1)?.textContent ?? '';
      const card = document.querySelector('.tool-card[data-tool="calculator"]')?.getAttribute('data-state');
      return text && { text, card, stop: document.querySelector('button.send.stop') !== null };
    });
    const seen = (await early.jsonValue()) as { text: string; card: string; stop: boolean };
    expect(seen.text.startsWith('12*')).toBe(true);
    expect(seen.text).not.toContain('calculator.');
    expect(seen).toMatchObject({ card: 'completed', stop: true });
    await turnEnded(page, 1);

    expect(await calc.getAttribute('data-state')).toBe('completed');
    expect(await calc.locator('.tool-status').getAttribute('aria-label')).toBe('done');
    expect(await calc.locator('.tool-title').innerText()).toBe('12*(7-2) = 60');
    expect(await calc.locator('.tool-ms').innerText()).toMatch(/^\d+(\.\d+)? (ms|s)$/);
    // The card comes before the text that followed it.
    const text = lastReply(page).locator('.markdown');
    expect(
      await calc.evaluate(
        (card, md) => Boolean(card.compareDocumentPosition(md!) & Node.DOCUMENT_POSITION_FOLLOWING),
        await text.elementHandle(),
      ),
    ).toBe(true);
    expect(await text.innerText()).toBe('12*(7-2) is 60, worked out with the calculator.');
    await calc.locator('button.tool-head').click();
    expect(await calc.locator('pre.tool-input').innerText()).toBe('{\n  "expression": "12*(7-2)"\n}');
    expect(await calc.locator('pre.tool-output').innerText()).toBe('60');

    await sendMessage(page, 'Mark todo 999 as done.');
    await turnEnded(page, 2);
    const failed = page.locator('.tool-card[data-tool="todo_done"]');
    expect(await failed.getAttribute('data-state')).toBe('error');
    expect(await failed.getAttribute('class')).toContain('is-error');
    expect(await failed.locator('.tool-status').getAttribute('aria-label')).toBe('failed');
    expect(await failed.locator('.tool-title').innerText()).toBe('999');
    await failed.locator('button.tool-head').click();
    expect(await failed.locator('pre.tool-input').innerText()).toBe('{\n  "id": 999\n}');
    expect(await failed.locator('pre.tool-output').innerText()).toMatch(/^Error: .*999/);
    expect(await lastReply(page).locator('.markdown').innerText()).toBe('There is no todo 999.');
    // The first card kept its state.
    expect(await calc.getAttribute('data-state')).toBe('completed');
    expect(setup.model.pending()).toBe(0);
    await expectNoErrors();
  });
});
