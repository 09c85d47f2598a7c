// The console's main flows in headless Chromium against a real server, as a user does them:
// create a table (by keyboard), insert items through the page, create a view and watch it become
// ready, find an item through the view, run a filtered query and see its plan, edit with a stale
// ETag and resolve the conflict both ways, watch the change feed live, delete. Every refused
// action must show the API's error code. A page error or console.error fails the run.
//
// Usage: node console-flows.js <base URL> <chromium> <screenshot dir>; exits non-zero on failure.
import assert from 'node:assert/strict';
import path from 'node:path';
import { chromium } from 'playwright-core';

const [base, executablePath, shots] = process.argv.slice(2);
const TIMEOUT = 15000;

// Chromium logs every non-2xx answer of fetch as "Failed to load resource: ... status of N";
// those of the refusals this script provokes on purpose are expected, nothing else is.
const EXPECTED_REFUSALS = new Set([400, 404, 409, 412]);
const problems = [];

async function api(method, p, body, headers = {}) {
  const r = await fetch(base + p, {
    method,
    headers: body === undefined ? headers : { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, etag: r.headers.get('etag'), text, json: text ? JSON.parse(text) : null };
}

const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.setDefaultTimeout(TIMEOUT);
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    const refused = /status of (\d{3})/.exec(m.text());
    if (!(refused && EXPECTED_REFUSALS.has(Number(refused[1])))) problems.push(`console.error: ${m.text()}`);
  });
  page.on('dialog', (d) => d.accept());
  // a screenshot of a page that shows no JavaScript value by mistake ([object …], null, undefined)
  const shot = async (name) => {
    const text = await page.locator('main').innerText();
    assert.doesNotMatch(text, /\[object |\bnull\b|\bundefined\b|\bNaN\b/, `${name}: ${text}`);
    await page.screenshot({ path: path.join(shots, name), fullPage: false });
  };
  // a textarea's text is its value, which no locator's hasText sees
  const valueHas = (selector, text) =>
    page.waitForFunction(([s, t]) => document.querySelector(s) && document.querySelector(s).value.includes(t), [selector, text]);
  const errorShown = async (code) => {
    await page.locator('[data-testid=error]', { hasText: code }).first().waitFor();
  };

  // Tables page, reached through the /console redirect; a table created by keyboard alone.
  await page.goto(`${base}/console`);
  await page.getByRole('heading', { name: 'Tables and views', level: 1 }).waitFor();
  await page.focus('#new-table-name');
  await page.keyboard.type('People');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Space'); // record a change feed
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Enter');
  await page.locator('tr[data-name=People]').waitFor();
  assert.equal((await api('GET', '/v1/tables/People')).json.options.changeFeed.enabled, true);
  // refused: the name is taken, and a name that is not one
  await page.fill('#new-table-name', 'People');
  await page.keyboard.press('Enter');
  await errorShown('TableAlreadyExists');
  await page.fill('#new-table-name', 'x');
  await page.keyboard.press('Enter');
  await errorShown('InvalidTableName');

  // Insert items through the page.
  const people = [
    // as typed: 1.0 is a double (JSON.stringify would write 1, an int32)
    ['acme', 'alice', '{\n  "name": "Alice",\n  "email": "Alice@Example.com",\n  "age": 34,\n  "score": 1.0\n}'],
    ['acme', 'bob', '{"name": "Bob", "email": "bob@example.com", "age": 27}'],
    ['globex', 'carol', '{"name": "Carol", "email": "carol@example.com", "age": 41}'],
  ];
  for (const [pk, id, properties] of people) {
    await page.goto(`${base}/console/#/new-item/People`);
    await page.fill('#new-pk', pk);
    await page.fill('#new-id', id);
    await page.fill('#new-json', properties);
    await page.focus('#new-json');
    await page.keyboard.press('Control+Enter');
    await page.getByRole('heading', { name: `${pk} / ${id}`, level: 1 }).waitFor();
  }
  const alice = await api('GET', '/v1/tables/People/items/acme/alice');
  assert.equal(alice.json.name, 'Alice');
  await page.goto(`${base}/console/#/new-item/People`);
  await page.fill('#new-pk', 'acme');
  await page.fill('#new-id', 'alice');
  await page.getByRole('button', { name: 'Insert' }).click();
  await errorShown('ItemAlreadyExists');

  // Browse a partition.
  await page.goto(`${base}/console/#/table/People`);
  await page.fill('#browse-pk', 'acme');
  await page.getByRole('button', { name: 'Browse partition' }).click();
  await page.getByRole('table', { name: 'Items of partition acme' }).waitFor();
  assert.equal(await page.getByRole('link', { name: /^Item acme/ }).count(), 2);
  await shot('table.png');

  // Create a view from the form: the preview renders the key of the first item live.
  await page.goto(`${base}/console/#/new-view?source=People`);
  await valueHas('#view-sample', 'alice');
  await page.fill('#view-name', 'PeopleByEmail');
  await page.fill('#view-partitionBy', 'all');
  await page.fill('#view-idBy', '{email|lower}');
  await page.locator('#preview-id', { hasText: '"alice@example.com"' }).waitFor();
  await page.locator('#preview-partition', { hasText: '"all"' }).waitFor();
  await page.fill('#view-idBy', '{nickname}');
  await page.locator('#preview-note', { hasText: 'the item is not in the view' }).waitFor();
  await page.fill('#view-idBy', '{email');
  await page.locator('#preview-note', { hasText: "has a '{' without its '}'" }).waitFor();
  await page.fill('#view-idBy', '{email}');
  await page.locator('#preview-id', { hasText: '"Alice@Example.com"' }).waitFor();
  await shot('view-form.png');
  await page.fill('#view-name', 'People'); // refused: a table has the name
  await page.getByRole('button', { name: 'Create view' }).click();
  await errorShown('TableAlreadyExists');
  await page.fill('#view-name', 'PeopleByEmail');
  await page.getByRole('button', { name: 'Create view' }).click();
  await page.getByRole('heading', { name: 'PeopleByEmail', level: 1 }).waitFor();
  await page.locator('[data-testid=view-state]', { hasText: 'ready' }).waitFor();
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await page.locator('[data-testid=drift]', { hasText: 'No drift: 3 entries checked.' }).waitFor();
  await page.waitForFunction(() => !document.querySelector('main .actions button').disabled);
  await shot('view.png');

  // A view whose key two items share fails, listing the conflict; it is deleted from its page.
  // A where that does not parse is refused with the filter error's position.
  await page.goto(`${base}/console/#/new-view?source=People`);
  await valueHas('#view-sample', 'alice');
  await page.fill('#view-name', 'PeopleByCompany');
  await page.fill('#view-partitionBy', 'all');
  await page.fill('#view-idBy', '{partitionKey}');
  await page.fill('#view-where', 'age ge');
  await page.getByRole('button', { name: 'Create view' }).click();
  await page.locator('[data-testid=error]', { hasText: 'InvalidView' }).filter({ hasText: 'position' }).waitFor();
  await page.fill('#view-where', 'age ge 18');
  await page.fill('#view-select', 'name, age');
  await page.getByRole('button', { name: 'Create view' }).click();
  await page.locator('[data-testid=view-state]', { hasText: 'failed' }).waitFor();
  await page.getByRole('table', { name: 'Key conflicts' }).getByText('all / acme').waitFor();
  await shot('view-failed.png');
  assert.deepEqual((await api('GET', '/v1/views/PeopleByCompany')).json.select, ['name', 'age']);
  await page.getByRole('button', { name: 'Delete view' }).click();
  await page.getByRole('heading', { name: 'Tables and views', level: 1 }).waitFor();
  assert.equal((await api('GET', '/v1/views/PeopleByCompany')).status, 404);

  // Find an item through the view: its partition "all", ids by email.
  await page.goto(`${base}/console/#/view/PeopleByEmail`);
  await page.getByRole('link', { name: 'Browse items' }).click();
  await page.fill('#browse-pk', 'all');
  await page.fill('#browse-prefix', 'bob');
  await page.getByRole('button', { name: 'Browse partition' }).click();
  await page.getByRole('link', { name: 'Item all / bob@example.com' }).click();
  await valueHas('#item-json', '"_sourceId": "bob"');
  assert.equal(await page.getByRole('button', { name: 'Save' }).isDisabled(), true);

  // A filtered query and its plan: the view answers an equality on its key.
  await page.goto(`${base}/console/#/query/People`);
  await page.fill('#query-filter', "email eq 'carol@example.com'");
  await page.keyboard.press('Enter');
  await page.locator('[data-testid=plan-kind]', { hasText: 'viewLookup' }).waitFor();
  await page.getByRole('link', { name: 'Item globex / carol' }).waitFor();
  await shot('query.png');
  await page.fill('#query-filter', "PartitionKey eq 'acme' and age ge 30");
  await page.keyboard.press('Enter');
  await page.locator('[data-testid=plan-kind]', { hasText: 'keyRange' }).waitFor();
  assert.equal(await page.getByRole('link', { name: /^Item / }).count(), 1);
  await page.fill('#query-filter', 'age ge');
  await page.keyboard.press('Enter');
  await errorShown('InvalidFilter');

  // Edit with a stale ETag: the conflict panel, then Reload; again, then Overwrite.
  await page.goto(`${base}/console/#/item/People/acme/alice`);
  await valueHas('#item-json', '"name": "Alice"');
  assert.match(await page.inputValue('#item-json'), /"score": 1\.0/, 'a double keeps its form in the editor');
  await api('PATCH', '/v1/tables/People/items/acme/alice', { name: 'Alice (elsewhere)' });
  await page.fill('#item-json', (await page.inputValue('#item-json')).replace('"name": "Alice"', '"name": "Alice (here)"'));
  await page.getByRole('button', { name: 'Save' }).click();
  await page.locator('[data-testid=conflict]', { hasText: 'PreconditionFailed' }).waitFor();
  await shot('item-conflict.png');
  await page.locator('[data-testid=conflict]').getByRole('button', { name: 'Reload' }).click();
  await valueHas('#item-json', '"name": "Alice (elsewhere)"');
  await api('PATCH', '/v1/tables/People/items/acme/alice', { name: 'Alice (again)' });
  await page.fill('#item-json', (await page.inputValue('#item-json')).replace('"name": "Alice (elsewhere)"', '"name": "Alice (mine)"'));
  await page.focus('#item-json');
  await page.keyboard.press('Control+Enter');
  await page.locator('[data-testid=conflict]').getByRole('button', { name: 'Overwrite' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved over the other write.' }).waitFor();
  const stored = await api('GET', '/v1/tables/People/items/acme/alice');
  assert.equal(stored.json.name, 'Alice (mine)');
  assert.match(stored.text, /"score":1\.0[,}]/, 'the double survived the edit as a double');

  // A view is read-only: the API refuses a write to it (shown on the item page when attempted).
  const viewWrite = await api('PUT', '/v1/tables/PeopleByEmail/items/all/x', {});
  assert.equal(viewWrite.json.error.code, 'ViewIsReadOnly');

  // The change feed, live: a write made elsewhere appears without a reload.
  await page.goto(`${base}/console/#/changes/People`);
  await page.getByRole('list', { name: 'Changes of People' }).getByText('carol').first().waitFor();
  await page.getByRole('status').filter({ hasText: 'Live: waiting' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Turn the change feed on' }).isVisible(), false);
  await api('PUT', '/v1/tables/People/items/initech/dave', { name: 'Dave', email: 'dave@example.com' });
  await page.getByRole('list', { name: 'Changes of People' }).getByText('initech / dave').waitFor();
  await shot('changes.png');

  // Delete an item from its page.
  await page.goto(`${base}/console/#/item/People/globex/carol`);
  await valueHas('#item-json', 'Carol');
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('heading', { name: 'People', level: 1 }).waitFor();
  assert.equal((await api('GET', '/v1/tables/People/items/globex/carol')).status, 404);
  await page.goto(`${base}/console/#/item/People/globex/carol`);
  await errorShown('ItemNotFound');

  // The API key dialog, by keyboard: Escape closes it; a key entered is kept in sessionStorage and
  // sent on every call as a bearer token; "Forget key" drops it. (The server's 401 that opens it on
  // its own needs API keys on the server.)
  await page.getByRole('button', { name: 'API key' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('dialog', { name: 'API key' }).waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('dialog', { name: 'API key' }).waitFor({ state: 'hidden' });
  await page.getByRole('button', { name: 'API key' }).click();
  await page.keyboard.type('vb-test-key');
  const sent = page.waitForRequest((r) => r.url().includes('/v1/tables'));
  await page.keyboard.press('Enter');
  assert.equal((await sent).headers().authorization, 'Bearer vb-test-key');
  assert.equal(await page.evaluate(() => sessionStorage.getItem('viewbase.apiKey')), 'vb-test-key');
  await page.getByRole('button', { name: 'API key' }).click();
  await page.getByRole('button', { name: 'Forget key' }).click();
  await page.waitForFunction(() => sessionStorage.getItem('viewbase.apiKey') === null); // on the dialog's close event

  // The start page with the view listed, at 1280x800 and in a narrow window.
  await page.goto(`${base}/console/#/`);
  await page.locator('tr[data-name=PeopleByEmail]', { hasText: 'ready' }).waitFor();
  await shot('tables.png');
  await page.setViewportSize({ width: 400, height: 800 });
  await page.goto(`${base}/console/#/query/People?filter=${encodeURIComponent("email eq 'bob@example.com'")}`);
  await page.locator('[data-testid=plan-kind]', { hasText: 'viewLookup' }).waitFor();
  assert.equal(await page.evaluate(() => document.activeElement.id), 'page-title', 'the heading has the focus');
  const sideways = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok((await sideways()) <= 0, `the narrow query page scrolls sideways by ${await sideways()} px`);
  await shot('narrow.png');
  // every page, once its data is in, fits the narrow window
  for (const [hash, loaded] of [
    ['#/', 'tr[data-name=PeopleByEmail]'],
    ['#/table/People', 'a[aria-label="Item acme / alice"]'],
    ['#/item/People/acme/alice', '#item-etag:not(:empty)'],
    ['#/new-view?source=People', '#preview-id:has-text("alice")'],
    ['#/view/PeopleByEmail', '[data-testid=view-state]'],
    ['#/changes/People', '.changes li'],
  ]) {
    await page.goto(`${base}/console/${hash}`);
    await page.locator(loaded).first().waitFor();
    assert.ok((await sideways()) <= 0, `the narrow page ${hash} scrolls sideways by ${await sideways()} px`);
  }
  assert.deepEqual(problems, [], 'page errors or console errors');
  console.log(JSON.stringify({ screenshots: shots, problems: problems.length }));
} finally {
  if (problems.length) console.error(`page errors and console errors so far:\n${problems.join('\n')}`);
  await browser.close();
}
