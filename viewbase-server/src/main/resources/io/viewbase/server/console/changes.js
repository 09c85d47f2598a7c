// #/changes/{t}: the table's change feed, live. A long-poll (wait=20s) asks for what comes after
// the last entry seen; the server answers as soon as a write commits. It starts with the latest
// 20 entries, and stops when the user leaves the page or presses Pause.

import * as api from './api.js';
import { h, errorBox, link, heading } from './dom.js';

const BACKLOG = 20;

export function render(main, [table]) {
  const error = errorBox();
  const list = h('ol', { class: 'changes', 'aria-live': 'polite', 'aria-label': `Changes of ${table}`, reversed: true });
  const state = h('p', { class: 'hint', role: 'status' }, 'Connecting…');
  const pause = h('button', { type: 'button' }, 'Pause');
  const enable = h('button', { type: 'button', hidden: true }, 'Turn the change feed on');
  main.append(
    heading(`Changes of ${table}`, [link([], 'Tables and views'), ' › ', link(['table', table], table)]),
    error,
    h('div', { class: 'actions' }, pause, enable),
    state,
    list,
  );
  let running = true;
  let controller = null;
  let after = null;

  function entry(c) {
    return h(
      'li',
      {},
      `#${c.sequence} `,
      h('strong', { class: `kind-${c.kind}` }, c.kind),
      ' ',
      c.kind === 'delete' || c.kind === 'expire' ? `${c.partitionKey} / ${c.id}` : link(['item', table, c.partitionKey, c.id], `${c.partitionKey} / ${c.id}`),
      ` at ${c.timestamp}`,
      c.transaction && c.transaction.size > 1 ? ` (transaction of ${c.transaction.size})` : '',
    );
  }

  async function loop() {
    while (running) {
      controller = new AbortController();
      try {
        if (after === null) {
          const { body } = await api.changes(table, { after: 0, limit: 1 }, controller.signal);
          after = Math.max(body.oldest > 0 ? body.oldest - 1 : 0, body.latest - BACKLOG);
        }
        const { body } = await api.changes(table, { after, wait: '20s', limit: 100 }, controller.signal);
        error.clear();
        enable.hidden = true;
        for (const c of body.changes) list.prepend(entry(c));
        after = body.next;
        state.textContent = `Live: waiting for writes after #${after} (latest ${body.latest}).`;
      } catch (e) {
        if (e.name === 'AbortError') return;
        error.show(e);
        if (e.code === 'ChangesExpired') {
          after = null;
          continue;
        }
        if (e.code === 'ChangeFeedDisabled') enable.hidden = false;
        state.textContent = 'Stopped.';
        running = false;
        pause.textContent = 'Resume';
      }
    }
  }

  pause.addEventListener('click', () => {
    running = !running;
    pause.textContent = running ? 'Pause' : 'Resume';
    if (running) {
      loop();
    } else {
      if (controller) controller.abort();
      state.textContent = 'Paused.';
    }
  });
  enable.addEventListener('click', async () => {
    try {
      await api.alterTable(table, { changeFeed: { enabled: true } });
      error.clear();
      enable.hidden = true;
      running = true;
      pause.textContent = 'Pause';
      loop();
    } catch (e) {
      error.show(e);
    }
  });
  loop();
  return () => {
    running = false;
    if (controller) controller.abort();
  };
}
