// The view form's key preview (the console's templates.js) against the server's own rule: items
// holding a value of every type are written to a table, a view is made for each template (the
// vectors of viewbase-core's KeyTemplateTest and viewbase-api's KeyTextTest), and every key the
// server's views hold must be the key templates.js renders for the item as the API reads it back,
// an item the view leaves out must render null, and a template the server refuses must be refused
// by templates.js too. Usage: node template-vectors.js <base URL>; exits non-zero on a difference.
import assert from 'node:assert/strict';
import { parseTemplate, renderTemplate, parseTyped, javaDouble, TemplateError } from '../../main/resources/io/viewbase/server/console/templates.js';

const base = process.argv[2];
const table = `Vectors${Date.now() % 100000}`;

async function call(method, path, body) {
  const r = await fetch(base + path, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, text, json: text ? JSON.parse(text) : null };
}

// The values of KeyTemplateTest's PERSON and KeyTextTest, one item each, as property "v".
const VALUES = {
  str: { v: 'Ann@Example.COM' },
  space: { v: 'a b' },
  marks: { v: '~a!b#c' },
  emoji: { v: '😀 smile' },
  empty: { v: '' },
  int: { v: 42 },
  negInt: { v: -42 },
  zero: { v: 0 },
  int64: { v: 1099511627776 },
  bigInt64: { 'v@odata.type': 'Edm.Int64', v: '9007199254740993' },
  smallInt64: { 'v@odata.type': 'Edm.Int64', v: 100 },
  dbl: { v: 1.5 },
  negDbl: { v: -12.5 },
  tenth: { v: 0.1 },
  milli: { v: 0.001 },
  tiny: { v: 1e-5 },
  huge: { v: 1e10 },
  whole: { 'v@odata.type': 'Edm.Double', v: '100.0' },
  negZero: { 'v@odata.type': 'Edm.Double', v: '-0.0' },
  nan: { 'v@odata.type': 'Edm.Double', v: 'NaN' },
  decimal: { 'v@odata.type': 'Edm.Decimal', v: '12.50' },
  decimalExp: { 'v@odata.type': 'Edm.Decimal', v: '1E+2' },
  decimalNeg: { 'v@odata.type': 'Edm.Decimal', v: '-0.001' },
  decimalZero: { 'v@odata.type': 'Edm.Decimal', v: '0.000' },
  yes: { v: true },
  born: { 'v@odata.type': 'Edm.DateTime', v: '2001-02-03T04:05:06.7Z' },
  guid: { 'v@odata.type': 'Edm.Guid', v: '0F8FAD5B-D9CB-469F-A165-70867728950E' },
  blob: { 'v@odata.type': 'Edm.Binary', v: 'Cv8=' },
  nothing: { v: null },
  object: { v: { a: 1 } },
  array: { v: [1, 2] },
  missing: {},
};

const TEMPLATES = [
  '{v}',
  '{v:08}',
  '{v:06}',
  '{v|lower}',
  '{v|upper}',
  '{v|key}',
  '{v|key}{id|key}',
  'x{v}#{partitionKey}/{id}',
  '{{literal}}{v}',
  'organization#{id}',
  '{partitionKey|key}{id|key}',
  'all',
];

const REFUSED = ['', '{open', 'close}', '{}', '{a:x}', '{a:123}', '{a|title}', '{a{b}', '{v:08|key}', '{v|key|lower}', '{v|upper|key}'];

let created = await call('PUT', `/v1/tables/${table}`);
assert.equal(created.status, 201, created.text);
for (const [id, properties] of Object.entries(VALUES)) {
  const r = await call('PUT', `/v1/tables/${table}/items/pk1/${id}`, properties);
  assert.equal(r.status, 200, `${id}: ${r.text}`);
}
const stored = {};
const page = await call('GET', `/v1/tables/${table}/items`);
for (const item of page.json.items) {
  // what the console reads: the item's JSON text as the API wrote it
  const one = await fetch(`${base}/v1/tables/${table}/items/pk1/${encodeURIComponent(item.id)}`);
  stored[item.id] = parseTyped(await one.text());
}
assert.equal(Object.keys(stored).length, Object.keys(VALUES).length);

let compared = 0;
for (const [n, template] of TEMPLATES.entries()) {
  const view = `${table}V${n}`;
  // one view partition per source item ({id}), so that no two items can collide in a key
  const r = await call('PUT', `/v1/views/${view}`, { source: table, partitionBy: '{id}', idBy: template });
  assert.ok(r.status === 201 || r.status === 202, `${template}: ${r.text}`);
  for (let i = 0; ; i++) {
    const s = await call('GET', `/v1/views/${view}`);
    assert.notEqual(s.json.state, 'failed', `${template}: ${s.text}`);
    if (s.json.state === 'ready') break;
    assert.ok(i < 200, `view for ${template} never became ready`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const entries = (await call('GET', `/v1/tables/${view}/items`)).json.items;
  const server = new Map(entries.map((e) => [e._sourceId, e.id]));
  const parts = parseTemplate(template, 'idBy');
  for (const [id, item] of Object.entries(stored)) {
    const rendered = renderTemplate(parts, item);
    const expected = server.has(id) ? server.get(id) : null;
    assert.equal(rendered, expected, `template ${template}, item ${id} (${JSON.stringify(VALUES[id])})`);
    compared++;
  }
}

for (const template of REFUSED) {
  const r = await call('PUT', `/v1/views/${table}Bad`, { source: table, idBy: template });
  assert.equal(r.status, 400, `${JSON.stringify(template)}: ${r.text}`);
  assert.equal(r.json.error.code, 'InvalidView', r.text);
  assert.throws(() => parseTemplate(template, 'idBy'), TemplateError, JSON.stringify(template));
  try {
    parseTemplate(template, 'idBy');
  } catch (e) {
    if (template !== '') {
      assert.equal(e.message, r.json.error.message, JSON.stringify(template));
      assert.equal(e.position, r.json.error.position, JSON.stringify(template));
    }
  }
}

// Java's Double.toString form, for pasted JSON whose numbers the server did not write
for (const [d, text] of [[1.5, '1.5'], [100, '100.0'], [1e10, '1.0E10'], [1e-5, '1.0E-5'], [0.001, '0.001'], [1234567.5, '1234567.5'], [12345678, '1.2345678E7'], [-0.25, '-0.25']]) {
  assert.equal(javaDouble(d), text);
}

console.log(JSON.stringify({ table, compared, refused: REFUSED.length }));
