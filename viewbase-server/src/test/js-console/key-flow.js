// The console against a server that requires API keys: the page loads without a key (its files
// hold no data), the first API call's 401 opens the key dialog with the API's code, a wrong key
// is refused again (ApiKeyInvalid), the right one is kept in sessionStorage and sent on every call,
// a reload keeps it, and a read key's refused write shows 403 ApiKeyDenied.
// Usage: node key-flow.js <base URL> <chromium> <admin key> <read key>; exits non-zero on failure.
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

const [base, executablePath, adminKey, readKey] = process.argv.slice(2);
const problems = [];
const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
try {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  page.setDefaultTimeout(15000);
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    // Chromium's log lines for the 401s and the 403 this run provokes are expected
    if (m.type() === 'error' && !/status of (401|403)/.test(m.text())) problems.push(`console.error: ${m.text()}`);
  });
  const dialog = page.getByRole('dialog', { name: 'API key' });

  await page.goto(`${base}/console/`);
  await dialog.waitFor();
  await page.locator('#key-reason', { hasText: 'ApiKeyRequired' }).waitFor();
  await page.keyboard.type('vb_000000000000_wrong');
  await page.keyboard.press('Enter');
  await page.locator('#key-reason', { hasText: 'ApiKeyInvalid' }).waitFor();
  await dialog.waitFor();
  await page.fill('#key-input', adminKey);
  await page.keyboard.press('Enter');
  await page.getByText('No tables yet').waitFor();
  assert.equal(await page.evaluate(() => sessionStorage.getItem('viewbase.apiKey')), adminKey);

  await page.fill('#new-table-name', 'Keyed');
  await page.keyboard.press('Enter');
  await page.locator('tr[data-name=Keyed]').waitFor();

  await page.reload();
  await page.locator('tr[data-name=Keyed]').waitFor();
  assert.equal(await dialog.isVisible(), false, 'the kept key serves after a reload');

  // A read key: reads pass, a write shows the API's 403.
  await page.getByRole('button', { name: 'API key' }).click();
  await page.fill('#key-input', readKey);
  await page.keyboard.press('Enter');
  await page.locator('tr[data-name=Keyed]').waitFor();
  await page.goto(`${base}/console/#/new-item/Keyed`);
  await page.fill('#new-pk', 'p');
  await page.fill('#new-id', 'i');
  await page.fill('#new-json', '{"a": 1}');
  await page.getByRole('button', { name: 'Insert' }).click();
  await page.locator('[data-testid=error]', { hasText: 'ApiKeyDenied' }).waitFor();

  assert.deepEqual(problems, [], 'page errors or console errors');
  console.log(JSON.stringify({ ok: true }));
} finally {
  if (problems.length) console.error(problems.join('\n'));
  await browser.close();
}
