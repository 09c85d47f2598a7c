// #/query/{t}: a table query with a $filter (docs/filter.md), the plan the planner chose
// (explain=true: pointRead, keyRange, viewLookup, scan or empty, with what it reads and why), and
// the items, page by page.

import * as api from './api.js';
import { h, fill, field, checkbox, link, heading } from './dom.js';
import { pager } from './items.js';

export function render(main, [table], search) {
  const form = h(
    'form',
    { class: 'inline', 'aria-label': 'Query' },
    field('query-filter', 'Filter ($filter)', { wide: true, autocomplete: 'off', spellcheck: 'false', placeholder: "PartitionKey eq 'acme' and age ge 30", value: search.get('filter') || '' }),
    field('query-select', 'Select', { autocomplete: 'off', placeholder: 'name,email' }),
    field('query-limit', 'Page size', { type: 'number', min: 1, max: 1000, value: 100 }),
    checkbox('query-explain', 'Show the plan', true),
    h('button', { type: 'submit', class: 'primary' }, 'Run query'),
  );
  const plan = h('section', { class: 'plan', 'aria-label': 'Query plan', hidden: true, 'data-testid': 'plan' });
  const results = h('div');
  main.append(
    heading(`Query ${table}`, [link([], 'Tables and views'), ' › ', link(['table', table], table)]),
    form,
    h('p', { class: 'hint' }, 'Enter runs the query. An empty filter reads every item, partition after partition.'),
    plan,
    results,
  );

  function showPlan(p) {
    if (!p) {
      plan.hidden = true;
      return;
    }
    fill(plan, 
      h('h2', {}, 'Plan'),
      h('dl', {},
        h('dt', {}, 'Kind'), h('dd', { 'data-testid': 'plan-kind' }, h('code', {}, p.kind)),
        h('dt', {}, 'Reads'), h('dd', {}, p.source),
        h('dt', {}, 'What'), h('dd', {}, p.description),
        h('dt', {}, 'Why'), h('dd', {}, p.reason),
      ),
    );
    plan.hidden = false;
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const filter = form.querySelector('#query-filter').value.trim();
    const select = form.querySelector('#query-select').value.replace(/\s+/g, '');
    const limit = Number(form.querySelector('#query-limit').value) || 100;
    const explain = form.querySelector('#query-explain').checked;
    plan.hidden = true;
    const p = pager(
      table,
      (continuation) => api.tableQuery(table, { filter, select, limit, continuation, explain: explain ? 'true' : undefined }),
      `Items of ${table} matching the filter`,
      (page) => showPlan(page.plan),
    );
    fill(results, p.element);
    p.show(null);
  });
  if (search.get('filter')) form.requestSubmit();
}
