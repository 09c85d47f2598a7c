// Small DOM helpers shared by the pages: building elements, showing errors, formatting.

/**
 * An element: h('a', {href: '#/'}, 'text', child...). Attributes named on* are listeners; a
 * false, null or undefined attribute is left out; children may be strings, nodes or arrays.
 */
export function h(tag, attributes = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === false || value === null || value === undefined) {
      continue;
    }
    if (name.startsWith('on')) {
      el.addEventListener(name.slice(2), value);
    } else if (name === 'class') {
      el.className = value;
    } else if (value === true) {
      el.setAttribute(name, '');
    } else {
      el.setAttribute(name, String(value));
    }
  }
  append(el, children);
  return el;
}

/** Replaces an element's children: null, false and undefined are left out, arrays flattened. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) {
      continue;
    }
    if (Array.isArray(child)) {
      append(el, child);
    } else {
      el.append(child instanceof Node ? child : String(child));
    }
  }
}

/** A labelled input: {id, label, ...input attributes}; the label is a real <label for>. */
export function field(id, label, attributes = {}, hint = null) {
  const { wide, ...rest } = attributes;
  return h(
    'div',
    { class: wide ? 'field wide' : 'field' },
    h('label', { for: id }, label),
    h(rest.tag || 'input', { id, name: id, ...rest, tag: null }),
    hint && h('p', { class: 'hint', id: `${id}-hint` }, hint),
  );
}

/** A checkbox with its label after it. */
export function checkbox(id, label, checked = false) {
  return h('div', { class: 'field check' }, h('input', { id, name: id, type: 'checkbox', checked }), h('label', { for: id }, label));
}

/** A region that shows the API's refusals: error code, message and the error's named fields. */
export function errorBox() {
  const box = h('div', { class: 'error', role: 'alert', 'data-testid': 'error' });
  box.show = (error) => {
    fill(box);
    if (!error) {
      return;
    }
    const details = Object.entries(error.details || {})
      .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join('\n');
    box.append(
      h('span', { class: 'code' }, error.code || 'Error'),
      error.status ? ` (HTTP ${error.status})` : '',
      ': ',
      error.message || String(error),
      details && h('pre', { class: 'details' }, details),
    );
  };
  box.clear = () => box.replaceChildren();
  return box;
}

/** A notice region for what just succeeded. */
export function noticeBox() {
  const box = h('div', { class: 'notice', role: 'status' });
  box.show = (text) => box.replaceChildren(text || '');
  return box;
}

/** A hash link to a page: link(['table', name], text). Each segment is percent-encoded. */
export function href(segments, query) {
  const path = '#/' + segments.map((s) => encodeURIComponent(s)).join('/');
  return query ? `${path}?${new URLSearchParams(query)}` : path;
}

export function link(segments, text, attributes = {}) {
  return h('a', { href: href(segments), ...attributes }, text);
}

/** The page heading, focused after navigation so that keyboard and screen reader users land on it. */
export function heading(text, crumbs) {
  const fragment = document.createDocumentFragment();
  append(fragment, [crumbs && h('p', { class: 'crumbs' }, crumbs), h('h1', { tabindex: '-1', id: 'page-title' }, text)]);
  return fragment;
}

/** A JSON text re-indented, every number kept exactly as written (1.0 stays 1.0, not 1). */
export function prettyJson(text) {
  let out = '';
  let indent = 0;
  let inString = false;
  const newline = () => '\n' + '  '.repeat(indent);
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\') {
        out += text[++i];
      } else if (c === '"') {
        inString = false;
      }
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      let j = i + 1;
      while (/\s/.test(text[j] || '')) j++;
      if (text[j] === close) {
        out += c + close;
        i = j;
      } else {
        indent++;
        out += c + newline();
      }
    } else if (c === '}' || c === ']') {
      indent--;
      out += newline() + c;
    } else if (c === ',') {
      out += ',' + newline();
    } else if (c === ':') {
      out += ': ';
    } else if (!/\s/.test(c)) {
      out += c;
    }
  }
  return out;
}

/**
 * A short, readable text of an item's user properties, for a list row, from its members' texts
 * (templates.js pageItemTexts: numbers as the server wrote them, 1.0 not 1).
 */
export function summary(texts) {
  return [...texts]
    .filter(([k]) => k !== 'partitionKey' && k !== 'id' && !k.startsWith('_') && !k.endsWith('@odata.type'))
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
}

/** "about 12 s", "3 min 5 s"; "unknown" for -1 or undefined. */
export function duration(seconds) {
  if (seconds === undefined || seconds === null || seconds < 0) {
    return 'unknown';
  }
  if (seconds < 60) {
    return `${Math.round(seconds)} s`;
  }
  const m = Math.floor(seconds / 60);
  return m < 60 ? `${m} min ${Math.round(seconds % 60)} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

export function number(n) {
  return typeof n === 'number' ? n.toLocaleString('en-US') : '—';
}
