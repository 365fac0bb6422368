import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/http.js';

// Code run inside the page: this project's TypeScript has no DOM types.
declare const window: any;
declare const document: any;

const browser = useBrowser();

/** Polls until the check passes: a busy machine may take seconds where an idle one takes milliseconds. */
const eventually = <T>(check: () => T | Promise<T>, timeout = 15_000) => expect.poll(check, { timeout, interval: 50 });
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

interface Fakes {
  /** Where the fake recognition is found (Chromium has only the prefixed name); none: the browser has no speech recognition. */
  recognition: 'webkitSpeechRecognition' | 'SpeechRecognition' | 'none';
  /** False: the browser has no speech synthesis. */
  synthesis?: boolean;
}

/**
 * Runs in the page before the app: a Web Speech API the test drives. Each recognition the app makes
 * lands in `__recognitions`; `say` delivers results as the browser would, `fail` an error. What the
 * app speaks lands in `__spoken`, and nothing is really read aloud.
 */
function fakeSpeech({ recognition, synthesis = true }: Fakes): void {
  delete window.SpeechRecognition;
  delete window.webkitSpeechRecognition;
  window.__recognitions = [];
  if (recognition !== 'none') {
    window[recognition] = class {
      lang = '';
      interimResults = false;
      continuous = false;
      onresult: any = null;
      onerror: any = null;
      onend: any = null;
      state = 'new';
      constructor() {
        window.__recognitions.push(this);
      }
      start() {
        this.state = 'started';
      }
      stop() {
        this.state = 'stopped';
        setTimeout(() => this.onend?.(), 10);
      }
      abort() {
        this.stop();
      }
      /** Results so far of this session, as [transcript, isFinal]; those before `from` were delivered already. */
      say(results: Array<[string, boolean]>, from = 0) {
        const list = results.map(([transcript, isFinal]) =>
          Object.assign([{ transcript, confidence: 0.9 }], { isFinal }),
        );
        this.onresult?.({ resultIndex: from, results: list });
      }
      fail(error: string) {
        this.onerror?.({ error });
        this.state = 'stopped';
        setTimeout(() => this.onend?.(), 10);
      }
    };
  }
  window.__spoken = [];
  if (!synthesis) {
    delete window.speechSynthesis;
    delete window.SpeechSynthesisUtterance;
  } else {
    window.speechSynthesis.speak = (u: any) => window.__spoken.push({ text: u.text, lang: u.lang });
    window.speechSynthesis.cancel = () => {};
  }
}

async function openApp(locale: string, fakes: Fakes) {
  const opened = await browser.openPage('about:blank', { locale });
  await opened.page.context().addInitScript(fakeSpeech, fakes);
  await opened.page.goto(`${server.url}/`);
  await opened.page.locator('#composer').waitFor();
  return opened;
}

const recognition = (page: Page): Promise<Array<{ lang: string; state: string; interim: boolean }>> =>
  page.evaluate(() =>
    window.__recognitions.map((r: any) => ({ lang: r.lang, state: r.state, interim: r.interimResults })),
  );
const say = (page: Page, results: Array<[string, boolean]>, from = 0) =>
  page.evaluate(([r, f]) => window.__recognitions.at(-1).say(r, f), [results, from] as const);
const composer = (page: Page) => page.locator('#composer').inputValue();
const spoken = (page: Page): Promise<Array<{ text: string; lang: string }>> => page.evaluate(() => window.__spoken);
const mic = (page: Page) => page.locator('button.voice');

/** Sends `text` and waits for the turn to end (the send button is back, the reply shown). */
async function ask(page: Page, text: string) {
  const replies = await page.locator('article.msg-assistant').count();
  await page.locator('#composer').fill(text);
  await page.locator('#composer').press('Enter');
  await eventually(() => page.locator('article.msg-assistant').count()).toBeGreaterThan(replies);
  await page.locator('button.send[type=submit]').waitFor();
}

it('holding the mic button fills the composer with what is heard, in Chinese for the Chinese UI, and the words can be sent', async () => {
  const { page, expectNoErrors } = await openApp('zh-CN', { recognition: 'webkitSpeechRecognition' });
  expect(await mic(page).getAttribute('aria-label')).toBe('按住说话');
  expect(await mic(page).getAttribute('aria-pressed')).toBe('false');
  await mic(page).hover();
  await page.mouse.down();
  expect(await recognition(page)).toEqual([{ lang: 'zh-CN', state: 'started', interim: true }]);
  expect(await mic(page).getAttribute('aria-pressed')).toBe('true');
  // What is heard shows while it is heard: first a guess, then the final words.
  await say(page, [['帮我算一下', false]]);
  expect(await composer(page)).toBe('帮我算一下');
  await say(page, [['帮我算一下 (3+5)*2', true]]);
  expect(await composer(page)).toBe('帮我算一下 (3+5)*2');
  await page.mouse.up();
  expect((await recognition(page))[0]!.state).toBe('stopped');
  await eventually(() => mic(page).getAttribute('aria-pressed')).toBe('false');
  // The words wait in the composer, focused, to be read over and sent.
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('composer');
  await page.keyboard.press('Enter');
  const card = page.locator('.tool-card[data-tool="calculator"][data-state="completed"]');
  await card.waitFor();
  expect(await page.locator('article.msg-user').textContent()).toContain('帮我算一下 (3+5)*2');
  await page.locator('article.msg-assistant', { hasText: '16' }).last().waitFor();
  await expectNoErrors();
});

it('in English, listens in en-US; Space held on the button talks too, and what is heard adds to what was typed', async () => {
  const { page, expectNoErrors } = await openApp('en-US', { recognition: 'SpeechRecognition' });
  expect(await mic(page).getAttribute('aria-label')).toBe('Hold to talk');
  await page.locator('#composer').fill('Quick question:  ');
  await mic(page).focus();
  await page.keyboard.down('Space');
  expect(await recognition(page)).toEqual([{ lang: 'en-US', state: 'started', interim: true }]);
  await say(page, [['what is', false]]);
  expect(await composer(page)).toBe('Quick question: what is');
  await say(page, [['what is 2+3', true]]);
  // A second phrase: the first stays final, the new one is still a guess.
  await say(
    page,
    [
      ['what is 2+3', true],
      [' exactly', false],
    ],
    1,
  );
  expect(await composer(page)).toBe('Quick question: what is 2+3 exactly');
  await page.keyboard.up('Space');
  expect((await recognition(page))[0]!.state).toBe('stopped');
  await eventually(() => mic(page).getAttribute('aria-pressed')).toBe('false');
  // A second hold starts a new recognition.
  await mic(page).hover();
  await page.mouse.down();
  await page.mouse.up();
  expect((await recognition(page)).map((r) => r.state)).toEqual(['stopped', 'stopped']);
  expect(await composer(page)).toBe('Quick question: what is 2+3 exactly');
  await expectNoErrors();
});

it('says why voice input stopped when the browser refuses it, and stops quietly when nothing was said', async () => {
  for (const [locale, message] of [
    ['zh-CN', '语音输入已停止：浏览器不允许使用麦克风'],
    ['en-US', 'Voice input stopped: the browser was not allowed to use the microphone'],
  ] as const) {
    const { page, expectNoErrors } = await openApp(locale, { recognition: 'webkitSpeechRecognition' });
    await mic(page).hover();
    await page.mouse.down();
    await page.evaluate(() => window.__recognitions[0].fail('no-speech'));
    await eventually(() => mic(page).getAttribute('aria-pressed')).toBe('false');
    await page.mouse.up();
    expect(await page.locator('.toast').count()).toBe(0);

    await page.mouse.down();
    await page.evaluate(() => window.__recognitions[1].fail('not-allowed'));
    await page.locator('.toast-error').waitFor();
    expect(await page.locator('.toast-error').textContent()).toBe(message);
    await page.mouse.up();
    expect(await mic(page).getAttribute('aria-pressed')).toBe('false');
    expect(await composer(page)).toBe('');
    await expectNoErrors();
  }
});

it('offers no mic without speech recognition, and no speaker without speech synthesis', async () => {
  const noMic = await openApp('en-US', { recognition: 'none' });
  expect(await noMic.page.locator('button.speaker').count()).toBe(1);
  expect(await mic(noMic.page).count()).toBe(0);
  await noMic.expectNoErrors();
  const neither = await openApp('zh-CN', { recognition: 'none', synthesis: false });
  expect(await neither.page.locator('button.speaker, button.voice').count()).toBe(0);
  await neither.expectNoErrors();
});

it('reads replies aloud in their language only while the speaker is on, and remembers the setting', async () => {
  const { page, settled, expectNoErrors } = await openApp('zh-CN', { recognition: 'webkitSpeechRecognition' });
  const speaker = page.locator('button.speaker');
  expect(await speaker.getAttribute('aria-pressed')).toBe('false');
  await ask(page, '帮我算一下 (3+5)*2');
  expect(await spoken(page)).toEqual([]);

  await speaker.click();
  expect(await speaker.getAttribute('aria-pressed')).toBe('true');
  expect(await speaker.getAttribute('aria-label')).toBe('朗读回复：开');
  await ask(page, '帮我算一下 (3+5)*2');
  await eventually(() => spoken(page)).toHaveLength(1);
  // Numbers alone are read in the app's language, the star as what it means.
  expect(await spoken(page)).toEqual([{ text: '(3+5) × 2 = 16', lang: 'zh-CN' }]);

  // An English reply is read in English, whatever the app's language.
  await ask(page, 'what time is it');
  await eventually(() => spoken(page)).toHaveLength(2);
  const en = (await spoken(page))[1]!;
  expect(en.lang).toBe('en-US');
  expect(en.text).toMatch(/^It is \w+day/);

  // Still on after a reload, which reads out nothing already read.
  await page.reload();
  await page.locator('article.msg-assistant').first().waitFor();
  expect(await page.locator('button.speaker').getAttribute('aria-pressed')).toBe('true');
  await settled();
  expect(await spoken(page)).toEqual([]);
  await ask(page, '7*6 等于多少');
  await eventually(() => spoken(page)).toHaveLength(1);
  expect(await spoken(page)).toEqual([{ text: '7 × 6 = 42', lang: 'zh-CN' }]);

  await page.locator('button.speaker').click();
  expect(await page.locator('button.speaker').getAttribute('aria-pressed')).toBe('false');
  await ask(page, '帮我算一下 9-4');
  await settled();
  expect(await spoken(page)).toHaveLength(1);
  await page.reload();
  await page.locator('#composer').waitFor();
  expect(await page.locator('button.speaker').getAttribute('aria-pressed')).toBe('false');
  await ask(page, 'what is 1+1');
  expect(await spoken(page)).toEqual([]);
  await expectNoErrors();
});

it('in the English UI, reads numbers in en-US and a Chinese reply in zh-CN', async () => {
  const { page, expectNoErrors } = await openApp('en-US', { recognition: 'none' });
  await page.locator('button.speaker').click();
  expect(await page.locator('button.speaker').getAttribute('aria-label')).toBe('Read replies aloud: on');
  await ask(page, 'what is 2+3');
  await eventually(() => spoken(page)).toHaveLength(1);
  expect(await spoken(page)).toEqual([{ text: '2+3 = 5', lang: 'en-US' }]);
  // A Chinese reply in the English UI is read in Chinese.
  await ask(page, '现在几点了');
  await eventually(() => spoken(page)).toHaveLength(2);
  const zh = (await spoken(page))[1]!;
  expect(zh.lang).toBe('zh-CN');
  expect(zh.text).toMatch(/[\u3400-\u9fff]/);
  await expectNoErrors();
});
