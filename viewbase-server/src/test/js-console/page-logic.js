// The console's page logic that needs no browser and no server: the progress line of a building
// view (with its ETA), durations, the JSON re-indenter that must keep every number as written, and
// the typed reading of pasted items. Usage: node page-logic.js; exits non-zero on a difference.
import assert from 'node:assert/strict';
import { progressText } from '../../main/resources/io/viewbase/server/console/views.js';
import { prettyJson, duration } from '../../main/resources/io/viewbase/server/console/dom.js';
import { summary } from '../../main/resources/io/viewbase/server/console/dom.js';
import { pageItemTexts } from '../../main/resources/io/viewbase/server/console/templates.js';
import { parseTyped } from '../../main/resources/io/viewbase/server/console/templates.js';

const building = { state: 'building', progress: { done: 412000, total: 1000000, itemsPerSecond: 52310.4, etaSeconds: 11 } };
assert.equal(progressText(building), '412,000 of 1,000,000 (41%), 52,310 items/s, ETA 11 s');
assert.equal(
  progressText({ state: 'building', progress: { done: 0, total: 0, itemsPerSecond: 0, etaSeconds: -1 } }),
  '0 of 0, 0 items/s, ETA unknown',
);
assert.equal(progressText({ state: 'ready', progress: { done: 3, total: 3 } }), 'built: 3 source items examined');
assert.equal(progressText({ state: 'failed', conflicts: [{}, {}] }), 'failed: 2 key conflicts; the view holds no data');
assert.equal(progressText({ state: 'failed', conflicts: [{}] }), 'failed: 1 key conflict; the view holds no data');
assert.equal(duration(185), '3 min 5 s');
assert.equal(duration(7260), '2 h 1 min');

const text = '{"a":1.0,"b":[],"c":{"d":"x,\\"y\\":{"},"e":[1E+2,-0.0,12345678901234567890]}';
const pretty = prettyJson(text);
assert.equal(pretty.replace(/\s+/g, ''), text.replace(/\s+/g, ''));
assert.match(pretty, /"a": 1\.0,/);
assert.match(pretty, /"d": "x,\\"y\\":\{"/);
assert.match(pretty, /12345678901234567890/);

const item = parseTyped('{"partitionKey":"p","id":"i","n":1,"d":1.0,"big":3000000000,"x@odata.type":"Edm.Int64","x":"5","s":"t"}');
assert.deepEqual(item.properties.n, { type: 'int32', value: '1' });
assert.equal(item.properties.d.type, 'double');
assert.equal(item.properties.d.text, '1.0');
assert.equal(item.properties.big.type, 'int64');
assert.deepEqual(item.properties.x, { type: 'int64', value: '5' });
assert.throws(() => parseTyped('{"a":1,"a":2}'), /duplicate/);
assert.throws(() => parseTyped('{"a":'), /expected/);
assert.throws(() => parseTyped('[1]'), /object/);
const [row] = pageItemTexts('{"items":[{"partitionKey":"p","id":"i","_etag":"e","n@odata.type":"Edm.Int64","n":5,"d":1.0,"s":"a b","o":{"k":[1.50,"x"]},"z":null}],"continuation":null}');
assert.equal(summary(row), 'n=5, d=1.0, s=a b, o={"k":[1.50,"x"]}, z=null');
console.log(JSON.stringify({ ok: true }));
