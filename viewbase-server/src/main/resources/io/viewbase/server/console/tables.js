// The start page: every table and view (kind, source, state, build progress with ETA), and a
// form to create a table. While a view builds, the list refreshes itself.

import * as api from './api.js';
import { h, fill, field, checkbox, errorBox, noticeBox, link, heading, duration, number } from './dom.js';
import { progressText } from './views.js';

export function render(main) {
  const error = errorBox();
  const notice = noticeBox();
  const body = h('tbody');
  const list = h(
    'div',
    { class: 'scroll' },
    h(
      'table',
      { 'aria-label': 'Tables and views' },
      h('thead', {}, h('tr', {}, ['Name', 'Kind', 'Source', 'State', 'Progress', 'Actions'].map((c) => h('th', { scope: 'col' }, c)))),
      body,
    ),
  );
  const form = h(
    'form',
    { class: 'inline', 'aria-labelledby': 'create-table-title' },
    field('new-table-name', 'Table name', { required: true, autocomplete: 'off' }),
    checkbox('new-table-feed', 'Record a change feed'),
    h('button', { type: 'submit', class: 'primary' }, 'Create table'),
  );
  main.append(
    heading('Tables and views'),
    error,
    notice,
    list,
    h('h2', { id: 'create-table-title' }, 'Create a table'),
    form,
    h('p', { class: 'hint' }, 'Names: a letter, then 2 to 62 letters or digits; tables and views share them. ', link(['new-view'], 'Create a view')),
  );

  let timer = null;
  let stopped = false;
  async function refresh() {
    clearTimeout(timer);
    try {
      const { body: answer } = await api.listTables();
      const rows = await Promise.all(answer.tables.map(row));
      if (stopped) return;
      fill(body, ...(rows.length ? rows : [h('tr', {}, h('td', { colspan: 6 }, 'No tables yet: create one below.'))]));
      if (answer.tables.some((t) => t.state === 'building')) {
        timer = setTimeout(refresh, 700);
      }
    } catch (e) {
      error.show(e);
    }
  }

  async function row(t) {
    let progress = '';
    if (t.kind === 'view') {
      try {
        const { body: status } = await api.getView(t.name);
        progress = progressText(status);
      } catch (e) {
        progress = `${e.code}`;
      }
    }
    const actions = [link(['query', t.name], 'Query', { 'aria-label': `Query ${t.name}` })];
    if (t.kind === 'table') {
      actions.push(' · ', link(['changes', t.name], 'Changes', { 'aria-label': `Changes of ${t.name}` }));
      actions.push(' · ', link(['new-view'], 'New view', { href: `#/new-view?source=${encodeURIComponent(t.name)}`, 'aria-label': `New view of ${t.name}` }));
    } else {
      actions.push(' · ', link(['view', t.name], 'Status', { 'aria-label': `Status of ${t.name}` }));
    }
    actions.push(' · ', h('button', { type: 'button', class: 'link danger', 'aria-label': `Delete ${t.name}`, onclick: () => drop(t) }, 'Delete'));
    return h(
      'tr',
      { 'data-name': t.name },
      h('th', { scope: 'row' }, link([t.kind === 'view' ? 'view' : 'table', t.name], t.name)),
      h('td', {}, t.kind),
      h('td', {}, t.source ? link(['table', t.source], t.source) : '—'),
      h('td', {}, h('span', { class: `state state-${t.state}` }, t.state)),
      h('td', {}, progress || '—'),
      h('td', {}, actions),
    );
  }

  async function drop(t) {
    const what = t.kind === 'view' ? `the view ${t.name} (its source is untouched)` : `the table ${t.name}, its items and its views`;
    if (!confirm(`Delete ${what}?`)) return;
    error.clear();
    try {
      await (t.kind === 'view' ? api.deleteView(t.name) : api.deleteTable(t.name));
      notice.show(`Deleted ${t.name}.`);
      refresh();
    } catch (e) {
      error.show(e);
    }
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.clear();
    const name = form.querySelector('#new-table-name').value.trim();
    const feed = form.querySelector('#new-table-feed').checked;
    try {
      await api.createTable(name, feed ? { changeFeed: { enabled: true } } : undefined);
      notice.show(`Created the table ${name}.`);
      form.reset();
      refresh();
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

