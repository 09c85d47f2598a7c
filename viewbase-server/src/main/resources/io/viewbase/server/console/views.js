// Views: the form that defines one, with a live preview of the key it gives a sample item, and a
// view's page: state, build progress with ETA (polled until ready), verify with drift, delete.
//
// The preview renders the partitionBy and idBy templates with templates.js, the server's rule
// (docs/views.md#key-templates) in JavaScript; ConsoleTemplateTest checks both agree. `where` is
// the server's to decide: the preview says only that the item is in the view if it matches.

import * as api from './api.js';
import { h, fill, field, errorBox, noticeBox, link, href, heading, duration, number, prettyJson } from './dom.js';
import { parseTemplate, renderTemplate, parseTyped } from './templates.js';

/** "412,000 of 1,000,000 (41%), 52,310 items/s, about 11 s left" for a building view. */
export function progressText(status) {
  const p = status.progress || {};
  if (status.state === 'ready') {
    return typeof p.done === 'number' ? `built: ${number(p.done)} source items examined` : 'built';
  }
  if (status.state === 'failed') {
    const n = (status.conflicts || []).length;
    return `failed: ${n} key conflict${n === 1 ? '' : 's'}; the view holds no data`;
  }
  const share = p.total > 0 ? ` (${Math.min(100, Math.round((100 * p.done) / p.total))}%)` : '';
  return `${number(p.done)} of ${number(p.total)}${share}, ${number(Math.round(p.itemsPerSecond || 0))} items/s, ETA ${duration(p.etaSeconds)}`;
}

/** #/new-view?source={t}: the definition form, its preview, and after PUT the view's page. */
export function renderForm(main, _params, search) {
  const error = errorBox();
  const sources = h('select', { id: 'view-source', name: 'view-source', required: true });
  const sample = h('textarea', { id: 'view-sample', spellcheck: 'false', 'aria-describedby': 'view-sample-hint', class: 'short' });
  const partitionKey = h('output', { id: 'preview-partition', 'aria-live': 'polite', for: 'view-partitionBy view-sample' });
  const id = h('output', { id: 'preview-id', 'aria-live': 'polite', for: 'view-idBy view-sample' });
  const previewNote = h('p', { class: 'hint', id: 'preview-note' });
  const form = h(
    'form',
    { 'aria-label': 'Define a view' },
    h('div', { class: 'inline' },
      field('view-name', 'View name', { required: true, autocomplete: 'off' }),
      h('div', { class: 'field' }, h('label', { for: 'view-source' }, 'Source table'), sources),
      h('div', { class: 'field' }, h('label', { for: 'view-kind' }, 'Kind'),
        h('select', { id: 'view-kind' }, h('option', { value: 'copy' }, 'copy'), h('option', { value: 'history' }, 'history'), h('option', { value: 'partitions' }, 'partitions'))),
    ),
    h('div', { class: 'inline' },
      field('view-partitionBy', 'partitionBy', { wide: true, value: '{partitionKey}', autocomplete: 'off', spellcheck: 'false' }, 'e.g. all, organization#{orgId}'),
      field('view-idBy', 'idBy', { wide: true, value: '{id}', autocomplete: 'off', spellcheck: 'false' }, 'e.g. {email|lower}, {age:08}#{id}, {price|key}{id|key}'),
    ),
    h('div', { class: 'inline' },
      field('view-where', 'where ($filter)', { wide: true, autocomplete: 'off', spellcheck: 'false', placeholder: 'active eq true' }),
      field('view-select', 'select', { wide: true, autocomplete: 'off', placeholder: 'email,name (empty: all)' }),
    ),
    h('p', { class: 'hint' }, 'A view key is unique: a write that would give two source items the same key is refused (ViewKeyConflict), so a view is also a uniqueness constraint. For a property that is not unique, add {id} to the key.'),
    h('section', { class: 'preview', 'aria-labelledby': 'preview-title' },
      h('h2', { id: 'preview-title' }, 'Key preview'),
      h('dl', { class: 'facts' }, h('dt', {}, 'partition key'), h('dd', {}, partitionKey), h('dt', {}, 'id'), h('dd', {}, id)),
      previewNote,
      h('label', { for: 'view-sample' }, 'Sample item (the first of the source, or paste JSON)'),
      sample,
      h('p', { class: 'hint', id: 'view-sample-hint' }, 'Rendered by the server\u2019s template rule, in the page.'),
    ),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Create view')),
  );
  main.append(heading('New view', link([], 'Tables and views')), error, form);

  const value = (name) => form.querySelector(`#view-${name}`).value;
  function preview() {
    let item;
    try {
      item = parseTyped(sample.value);
    } catch (e) {
      partitionKey.textContent = id.textContent = '—';
      previewNote.textContent = sample.value.trim() ? `The sample is not an item: ${e.message}` : 'No sample item: the source is empty; paste one.';
      return;
    }
    const notes = [];
    const render = (template, out, name) => {
      try {
        const key = renderTemplate(parseTemplate(template || (name === 'partitionBy' ? '{partitionKey}' : '{id}'), name), item);
        out.textContent = key === null ? '(none)' : JSON.stringify(key);
        if (key === null) notes.push(`${name} names a property this item lacks (or holds null, a binary, an object, an array): the item is not in the view.`);
      } catch (e) {
        out.textContent = '—';
        notes.push(`${e.message} (at ${e.position}).`);
      }
    };
    render(value('partitionBy'), partitionKey, 'partitionBy');
    render(value('idBy'), id, 'idBy');
    if (value('where').trim()) notes.push('The server decides where: the item is in the view only if it matches.');
    previewNote.textContent = notes.join(' ');
  }

  async function loadSample() {
    sample.value = '';
    const source = sources.value;
    if (source) {
      try {
        const { body } = await api.tableQuery(source, { limit: 1 });
        if (body.items.length) {
          const first = body.items[0];
          const got = await api.getItem(source, first.partitionKey, first.id);
          sample.value = prettyJson(got.text);
        }
      } catch (e) {
        error.show(e);
      }
    }
    preview();
  }

  for (const name of ['partitionBy', 'idBy', 'where']) form.querySelector(`#view-${name}`).addEventListener('input', preview);
  sample.addEventListener('input', preview);
  sources.addEventListener('change', loadSample);

  api.listTables().then(
    ({ body }) => {
      const tables = body.tables.filter((t) => t.kind === 'table');
      fill(sources, ...tables.map((t) => h('option', { value: t.name, selected: t.name === search.get('source') }, t.name)));
      loadSample();
    },
    (e) => error.show(e),
  );

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.clear();
    const name = value('name').trim();
    const definition = { source: sources.value, partitionBy: value('partitionBy') || null, idBy: value('idBy') || null };
    if (value('kind') !== 'copy') definition.kind = value('kind');
    if (value('where').trim()) definition.where = value('where').trim();
    const select = value('select').split(',').map((s) => s.trim()).filter(Boolean);
    if (select.length) definition.select = select;
    try {
      await api.createView(name, definition);
      location.hash = href(['view', name]);
    } catch (e) {
      error.show(e);
    }
  });
}

/** #/view/{v}: status, progress with ETA until ready, verify (and repair) with drift, delete. */
export function renderView(main, [view]) {
  const error = errorBox();
  const notice = noticeBox();
  const facts = h('dl', { class: 'facts', 'data-testid': 'view-status' });
  const bar = h('progress', { max: 100, 'aria-label': 'Build progress' });
  const progress = h('p', { role: 'status', id: 'view-progress' });
  const report = h('section', { 'aria-label': 'Verify report' });
  const verify = h('button', { type: 'button', class: 'primary' }, 'Verify');
  const repair = h('button', { type: 'button' }, 'Verify and repair');
  const remove = h('button', { type: 'button', class: 'danger' }, 'Delete view');
  main.append(
    heading(view, link([], 'Tables and views')),
    h('ul', { class: 'pagelinks' }, h('li', {}, link(['table', view], 'Browse items')), h('li', {}, link(['query', view], 'Query'))),
    error,
    notice,
    facts,
    h('div', {}, bar, ' ', progress),
    h('div', { class: 'actions' }, verify, repair, remove),
    report,
  );
  let timer = null;
  let stopped = false;

  async function refresh() {
    clearTimeout(timer);
    try {
      const { body: s } = await api.getView(view);
      if (stopped) return;
      fill(facts, 
        h('dt', {}, 'State'), h('dd', {}, h('span', { class: `state state-${s.state}`, 'data-testid': 'view-state' }, s.state)),
        h('dt', {}, 'Source'), h('dd', {}, link(['table', s.source], s.source)),
        s.kind && [h('dt', {}, 'Kind'), h('dd', {}, s.kind)],
        h('dt', {}, 'partitionBy'), h('dd', {}, h('code', {}, s.partitionBy)),
        h('dt', {}, 'idBy'), h('dd', {}, h('code', {}, s.idBy)),
        h('dt', {}, 'where'), h('dd', {}, s.where ? h('code', {}, s.where) : 'every item'),
        h('dt', {}, 'select'), h('dd', {}, s.select && s.select.length ? s.select.join(', ') : 'all properties'),
        h('dt', {}, 'Created'), h('dd', {}, s.created),
      );
      const p = s.progress || {};
      bar.hidden = s.state === 'failed';
      bar.value = s.state === 'ready' ? 100 : p.total > 0 ? Math.min(100, (100 * p.done) / p.total) : 0;
      progress.textContent = progressText(s);
      verify.disabled = repair.disabled = s.state !== 'ready';
      if (s.state === 'failed' && s.conflicts && s.conflicts.length) {
        fill(report, h('h2', {}, 'Key conflicts'), conflictTable(s.conflicts));
      }
      if (s.state === 'building') timer = setTimeout(refresh, 500);
    } catch (e) {
      error.show(e);
    }
  }

  async function check(fix) {
    error.clear();
    verify.disabled = repair.disabled = true;
    fill(report, h('p', { role: 'status' }, 'Verifying: reading the whole source and view…'));
    try {
      const { body: r } = await api.verifyView(view, fix ? 'true' : undefined);
      fill(report, 
        h('h2', {}, 'Verify report'),
        h('p', { 'data-testid': 'drift' }, r.drift === 0 ? `No drift: ${number(r.checked)} entries checked.` : `Drift: ${number(r.drift)} (${r.missing} missing, ${r.extra} extra, ${r.different} different) of ${number(r.checked)} checked${r.repaired ? '; repaired' : ''}.`),
        r.samples.length ? sampleTable(r.samples) : null,
      );
    } catch (e) {
      fill(report);
      error.show(e);
    }
    refresh();
  }

  verify.addEventListener('click', () => check(false));
  repair.addEventListener('click', () => check(true));
  remove.addEventListener('click', async () => {
    if (!confirm(`Delete the view ${view}? Its source is untouched.`)) return;
    try {
      await api.deleteView(view);
      location.hash = '#/';
    } catch (e) {
      error.show(e);
    }
  });
  refresh();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

function sampleTable(samples) {
  return h('div', { class: 'scroll' }, h('table', { 'aria-label': 'Drift samples' },
    h('thead', {}, h('tr', {}, ['Kind', 'View key', 'Source item'].map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, samples.map((s) => h('tr', {}, h('td', {}, s.kind), h('td', { class: 'mono' }, `${s.viewPartitionKey} / ${s.viewId}`), h('td', { class: 'mono' }, `${s.sourcePartitionKey} / ${s.sourceId}`)))),
  ));
}

function conflictTable(conflicts) {
  return h('div', { class: 'scroll' }, h('table', { 'aria-label': 'Key conflicts' },
    h('thead', {}, h('tr', {}, ['View key', 'Source item', 'Other source item'].map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, conflicts.map((c) => h('tr', {}, h('td', { class: 'mono' }, `${c.viewPartitionKey} / ${c.viewId}`), h('td', { class: 'mono' }, `${c.sourcePartitionKey} / ${c.sourceId}`), h('td', { class: 'mono' }, `${c.otherSourcePartitionKey} / ${c.otherSourceId}`)))),
  ));
}
