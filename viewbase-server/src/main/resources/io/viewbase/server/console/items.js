// A table's or view's items: browsing a partition (or every partition) page by page, one item as
// JSON with edit, insert and delete, and ETag conflicts shown with a way out.
//
// write            | sends                         | 412 PreconditionFailed (someone wrote first)
// -----------------+-------------------------------+--------------------------------------------------
// Save (edit)      | PUT, If-Match: the ETag read  | conflict panel: Reload (read the current item,
// Delete           | DELETE, If-Match: the ETag    |   drop the edit) or Overwrite (send again with
//                  |                               |   If-Match: *, which still needs the item to exist)
// Insert (new)     | PUT, If-None-Match: *         | (409 ItemAlreadyExists instead)

import * as api from './api.js';
import { h, fill, field, errorBox, noticeBox, link, href, heading, prettyJson, summary } from './dom.js';
import { pageItemTexts } from './templates.js';

/** The items of a page as a table, each linking to its item page. */
export function itemsTable(table, items, label, texts) {
  const rows = items.map((item, i) =>
    h(
      'tr',
      {},
      h('td', { class: 'mono' }, item.partitionKey === '' ? '""' : item.partitionKey),
      h('td', { class: 'mono' }, link(['item', table, item.partitionKey, item.id], item.id === '' ? '""' : item.id, { 'aria-label': `Item ${item.partitionKey} / ${item.id}` })),
      h('td', { class: 'props' }, summary(texts[i])),
    ),
  );
  return h(
    'div',
    { class: 'scroll' },
    h(
      'table',
      { 'aria-label': label },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Partition key'), h('th', { scope: 'col' }, 'Id'), h('th', { scope: 'col' }, 'Properties'))),
      h('tbody', {}, rows.length ? rows : h('tr', {}, h('td', { colspan: 3 }, 'No items.'))),
    ),
  );
}

/**
 * A pager over a query: load(continuation) answers a page; shows the items and a "Next page"
 * button while the API gives a continuation (a page may hold fewer items than asked, even none).
 */
export function pager(table, load, label, onPage) {
  const out = h('div', { class: 'results' });
  const error = errorBox();
  const count = h('p', { class: 'hint', role: 'status' });
  let pageNo = 0;
  async function show(continuation) {
    error.clear();
    try {
      const { body, text } = await load(continuation);
      pageNo = continuation ? pageNo + 1 : 1;
      const next = body.continuation
        ? h('button', { type: 'button', onclick: () => show(body.continuation) }, 'Next page')
        : null;
      count.textContent = `Page ${pageNo}: ${body.items.length} item${body.items.length === 1 ? '' : 's'}${body.continuation ? ', more to come' : ', the last page'}.`;
      fill(out, count, itemsTable(table, body.items, label, pageItemTexts(text)), next && h('div', { class: 'actions' }, next));
      if (onPage) onPage(body);
      if (next && continuation) next.focus();
    } catch (e) {
      fill(out);
      error.show(e);
    }
  }
  return { element: h('div', {}, error, out), show };
}

/** #/table/{t}: browse one partition, or every partition, with paging. */
export function renderTable(main, [table]) {
  const error = errorBox();
  const facts = h('dl', { class: 'facts' });
  const links = h('ul', { class: 'pagelinks' });
  const form = h(
    'form',
    { class: 'inline', 'aria-label': 'Browse a partition' },
    field('browse-pk', 'Partition key', { autocomplete: 'off' }),
    field('browse-prefix', 'Id prefix', { autocomplete: 'off' }),
    field('browse-limit', 'Page size', { type: 'number', min: 1, max: 1000, value: 50 }),
    h('button', { type: 'submit', class: 'primary' }, 'Browse partition'),
    h('button', { type: 'button', id: 'browse-all' }, 'All partitions'),
  );
  const results = h('div');
  main.append(heading(table, link([], 'Tables and views')), error, facts, links, h('h2', {}, 'Items'), form, results);

  api.getTable(table).then(
    ({ body: t }) => {
      facts.append(h('dt', {}, 'Kind'), h('dd', {}, t.kind), h('dt', {}, 'State'), h('dd', { class: `state state-${t.state}` }, t.state));
      if (t.source) facts.append(h('dt', {}, 'Source'), h('dd', {}, link(['table', t.source], t.source)));
      if (t.options) {
        const feed = t.options.changeFeed && t.options.changeFeed.enabled;
        facts.append(h('dt', {}, 'Change feed'), h('dd', {}, feed ? 'on' : 'off'), h('dt', {}, 'Time to live'), h('dd', {}, t.options.ttl || 'none'));
      }
      facts.append(h('dt', {}, 'Created'), h('dd', {}, t.created));
      links.append(h('li', {}, link(['query', table], 'Query with a filter')));
      if (t.kind === 'table') {
        links.append(
          h('li', {}, link(['new-item', table], 'Insert an item')),
          h('li', {}, h('a', { href: `#/new-view?source=${encodeURIComponent(table)}` }, 'Create a view of it')),
          h('li', {}, link(['changes', table], 'Change feed')),
        );
      } else {
        links.append(h('li', {}, link(['view', table], 'View status, verify')));
      }
    },
    (e) => error.show(e),
  );

  const limit = () => Number(form.querySelector('#browse-limit').value) || 50;
  let current = null;
  function browse(partition) {
    const prefix = form.querySelector('#browse-prefix').value;
    current = pager(
      table,
      (continuation) =>
        partition === null
          ? api.tableQuery(table, { limit: limit(), continuation })
          : api.partitionQuery(table, partition, { prefix, limit: limit(), continuation }),
      partition === null ? `Items of ${table}` : `Items of partition ${partition}`,
    );
    fill(results, current.element);
    current.show(null);
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    browse(form.querySelector('#browse-pk').value);
  });
  form.querySelector('#browse-all').addEventListener('click', () => browse(null));
  browse(null);
}

/** #/item/{t}/{pk}/{id}: the item as JSON; Save, Delete, and the conflict panel on 412. */
export function renderItem(main, [table, pk, id]) {
  const error = errorBox();
  const notice = noticeBox();
  const conflict = h('div', { class: 'conflict', role: 'alert', hidden: true, 'data-testid': 'conflict' });
  const etag = h('code', { id: 'item-etag' });
  const editor = h('textarea', { id: 'item-json', spellcheck: 'false', 'aria-describedby': 'item-json-hint' });
  const save = h('button', { type: 'submit', class: 'primary' }, 'Save');
  const remove = h('button', { type: 'button', class: 'danger' }, 'Delete');
  const reload = h('button', { type: 'button' }, 'Reload');
  const form = h(
    'form',
    { 'aria-label': 'Edit the item' },
    h('label', { for: 'item-json' }, 'Item as JSON'),
    editor,
    h('p', { class: 'hint', id: 'item-json-hint' }, 'partitionKey and id cannot change; _etag and _timestamp are written by the server. Ctrl+Enter saves.'),
    h('div', { class: 'actions' }, save, remove, reload),
  );
  main.append(
    heading(`${pk === '' ? '""' : pk} / ${id === '' ? '""' : id}`, [link([], 'Tables and views'), ' › ', link(['table', table], table)]),
    h('p', {}, 'ETag: ', etag),
    error,
    notice,
    conflict,
    form,
  );
  let readOnly = false;
  let current = null; // the ETag the edit is based on

  async function load(message) {
    error.clear();
    conflict.hidden = true;
    try {
      const got = await api.getItem(table, pk, id);
      current = got.etag;
      etag.textContent = got.etag;
      editor.value = prettyJson(got.text);
      readOnly = '_sourceId' in got.body;
      editor.readOnly = readOnly;
      save.disabled = readOnly;
      remove.disabled = readOnly;
      notice.show(message || (readOnly ? 'A view entry: views are read-only; edit the source item.' : ''));
    } catch (e) {
      error.show(e);
      if (e.code === 'ItemNotFound') {
        editor.value = '';
        save.disabled = remove.disabled = true;
      }
    }
  }

  function showConflict(e, retry) {
    fill(conflict, 
      h('strong', {}, 'Conflict: '),
      `${e.code} (HTTP ${e.status}): ${e.message} Someone wrote the item after this page loaded it (ETag ${current}): reload it and drop your edit, or overwrite their write with yours. `,
      h('div', { class: 'actions' },
        h('button', { type: 'button', onclick: () => load('Reloaded the current item; your edit was discarded.') }, 'Reload'),
        h('button', { type: 'button', class: 'danger', onclick: () => retry('*') }, 'Overwrite'),
      ),
    );
    conflict.hidden = false;
    conflict.querySelector('button').focus();
  }

  async function write(ifMatch) {
    error.clear();
    conflict.hidden = true;
    try {
      const got = await api.replaceItem(table, pk, id, editor.value, ifMatch);
      current = got.etag;
      etag.textContent = got.etag;
      editor.value = prettyJson(got.text);
      notice.show(ifMatch === '*' ? 'Saved over the other write.' : 'Saved.');
    } catch (e) {
      if (e.status === 412) showConflict(e, write);
      else error.show(e);
    }
  }

  async function drop(ifMatch) {
    if (ifMatch !== '*' && !confirm(`Delete the item ${pk} / ${id}?`)) return;
    error.clear();
    conflict.hidden = true;
    try {
      await api.deleteItem(table, pk, id, ifMatch);
      location.hash = href(['table', table]);
    } catch (e) {
      if (e.status === 412) showConflict(e, drop);
      else error.show(e);
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!readOnly) write(current);
  });
  editor.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  remove.addEventListener('click', () => drop(current));
  reload.addEventListener('click', () => load('Reloaded.'));
  load();
}

/** #/new-item/{t}: insert (If-None-Match: *), then open the stored item. */
export function renderNew(main, [table]) {
  const error = errorBox();
  const form = h(
    'form',
    { 'aria-label': 'Insert an item' },
    h('div', { class: 'inline' },
      field('new-pk', 'Partition key', { autocomplete: 'off' }),
      field('new-id', 'Id', { autocomplete: 'off' }),
    ),
    h('label', { for: 'new-json' }, 'Properties as JSON'),
    h('textarea', { id: 'new-json', spellcheck: 'false', 'aria-describedby': 'new-json-hint' }, '{\n  \n}'),
    h('p', { class: 'hint', id: 'new-json-hint' }, 'Types JSON lacks take an annotation: "born@odata.type": "Edm.DateTime". Ctrl+Enter inserts.'),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Insert')),
  );
  main.append(heading(`Insert into ${table}`, [link([], 'Tables and views'), ' › ', link(['table', table], table)]), error, form);
  const json = form.querySelector('#new-json');
  json.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.clear();
    const pk = form.querySelector('#new-pk').value;
    const id = form.querySelector('#new-id').value;
    try {
      await api.insertItem(table, pk, id, json.value);
      location.hash = href(['item', table, pk, id]);
    } catch (e) {
      error.show(e);
    }
  });
}
