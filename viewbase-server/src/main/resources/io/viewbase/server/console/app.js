// The console's entry: routing by location.hash, and the API key dialog.
//
// hash                         | page
// -----------------------------+-----------------------------------------------------------
// #/                           | tables and views (tables.js)
// #/table/{t}                  | a table or view: browse partitions, page by page (items.js)
// #/item/{t}/{pk}/{id}         | one item as JSON: edit, delete, ETag conflicts (items.js)
// #/new-item/{t}               | insert an item (items.js)
// #/query/{t}                  | a filtered query with its plan (query.js)
// #/new-view?source={t}        | the view form with its key preview (views.js)
// #/view/{v}                   | a view's state, build progress, verify and drift (views.js)
// #/changes/{t}                | the table's change feed, live (changes.js)
//
// A page is render(main, params, query) and may return a function that stops what it started
// (polls, long-polls) when the user leaves it.

import { onKeyNeeded, apiKey, setApiKey } from './api.js';
import { h } from './dom.js';
import * as tables from './tables.js';
import * as items from './items.js';
import * as query from './query.js';
import * as views from './views.js';
import * as changes from './changes.js';

const ROUTES = {
  '': tables.render,
  table: items.renderTable,
  item: items.renderItem,
  'new-item': items.renderNew,
  query: query.render,
  'new-view': views.renderForm,
  view: views.renderView,
  changes: changes.render,
};

let stop = null;
let firstPage = true;

function route() {
  const hash = location.hash.replace(/^#\/?/, '');
  const [path, search] = hash.split('?');
  const [name, ...params] = path.split('/').map((s) => decodeURIComponent(s));
  const page = ROUTES[name] || notFound;
  if (stop) {
    stop();
    stop = null;
  }
  const main = document.getElementById('main');
  main.replaceChildren();
  for (const a of document.querySelectorAll('[data-nav]')) {
    a.toggleAttribute('aria-current', a.dataset.nav === (name || 'tables'));
    if (a.hasAttribute('aria-current')) a.setAttribute('aria-current', 'page');
  }
  const result = page(main, params, new URLSearchParams(search || ''));
  stop = typeof result === 'function' ? result : null;
  const title = main.querySelector('h1');
  document.title = title ? `${title.textContent} · Viewbase console` : 'Viewbase console';
  // after a navigation (not on the first load) the heading takes the focus, where a keyboard or
  // screen reader user expects the new page to begin; the link that had it is gone
  if (title && !firstPage) {
    title.focus();
  }
  firstPage = false;
}

function notFound(main) {
  main.append(h('h1', { tabindex: '-1' }, 'No such page'), h('p', {}, h('a', { href: '#/' }, 'Back to tables and views')));
}

/** The key dialog: resolves to the key entered, or null (cancelled, Escape, or "Forget key"). */
function askKey(error) {
  const dialog = document.getElementById('key-dialog');
  const input = document.getElementById('key-input');
  document.getElementById('key-reason').textContent = error
    ? `${error.code}: ${error.message}`
    : 'Enter the API key this console sends with every request.';
  input.value = apiKey() || '';
  return new Promise((resolve) => {
    dialog.addEventListener(
      'close',
      () => {
        if (dialog.returnValue === 'use' && input.value.trim()) {
          resolve(input.value.trim());
        } else {
          if (dialog.returnValue === 'forget') setApiKey(null);
          resolve(null);
        }
      },
      { once: true },
    );
    dialog.returnValue = '';
    dialog.showModal();
    input.focus();
  });
}

onKeyNeeded(askKey);
document.getElementById('key-button').addEventListener('click', async () => {
  const key = await askKey(null);
  if (key) {
    setApiKey(key);
    route();
  }
});
window.addEventListener('hashchange', route);
route();
