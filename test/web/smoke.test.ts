import { afterAll, beforeAll, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/http.js';

const browser = useBrowser();
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

it('the server serves the web app at /, and it starts without errors', async () => {
  const { page, expectNoErrors } = await browser.openPage(`${server.url}/`);
  // The app has mounted once #app has children (index.html leaves it empty).
  await page.locator('#app > *').first().waitFor();
  expect(await page.title()).toContain('Zhixing');
  await expectNoErrors();
  await browser.screenshot(page, 'smoke');
});
