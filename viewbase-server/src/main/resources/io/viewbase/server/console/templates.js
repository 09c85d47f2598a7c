// View key templates, rendered in the browser for the view form's live preview: the rule of the
// server's KeyTemplate and KeyText (docs/views.md#key-templates), for an item as the native API
// writes it. ConsoleTemplateTest runs items and templates through both, this module and a real
// server's views, and checks that every key agrees.
//
// syntax               | renders
// ---------------------+------------------------------------------------------------------
// text                 | itself; {{ and }} are literal braces
// {name}               | the property's value as text (valueText)
// {partitionKey}, {id} | the item's identity
// {name:08}            | zero-padded on the left to 8 characters (integers after the sign)
// {name|lower}, |upper | case-folded
// {name|key}           | sortable text (sortableText); no width, no case
//
// Values keep the type the JSON gives them (parseTyped): an integer is an int32 when it fits,
// else an int64; a number with a '.' or an exponent is a double, whose text the server writes
// as Java's Double.toString, so the text as written is the text a key renders; "name@odata.type"
// types the property next to it.

const ANNOTATION = '@odata.type';

/** A template refused as the server refuses it: InvalidView, with the field and position. */
export class TemplateError extends Error {
  constructor(field, template, why, position) {
    super(`The ${field} template ${why}`);
    this.field = field;
    this.template = template;
    this.position = position;
  }
}

/** The parts of a template: {literal} or {property, width, transform}. Throws TemplateError. */
export function parseTemplate(template, field) {
  const invalid = (why, at) => new TemplateError(field, template, why, at);
  if (template == null || template === '') {
    throw invalid('must not be empty', 0);
  }
  const parts = [];
  let literal = '';
  let i = 0;
  while (i < template.length) {
    const c = template[i];
    if (c === '{' && template[i + 1] === '{') {
      literal += '{';
      i += 2;
    } else if (c === '}' && template[i + 1] === '}') {
      literal += '}';
      i += 2;
    } else if (c === '}') {
      throw invalid("has a '}' without its '{' (write }} for a literal brace)", i);
    } else if (c === '{') {
      const end = template.indexOf('}', i);
      if (end < 0) {
        throw invalid("has a '{' without its '}'", i);
      }
      if (literal) {
        parts.push({ literal });
        literal = '';
      }
      parts.push(placeholder(template.substring(i + 1, end), invalid, i));
      i = end + 1;
    } else {
      literal += c;
      i++;
    }
  }
  if (literal) {
    parts.push({ literal });
  }
  return parts;
}

function placeholder(body, invalid, at) {
  let transform = null;
  const bar = body.indexOf('|');
  if (bar >= 0) {
    transform = body.substring(bar + 1);
    body = body.substring(0, bar);
    if (transform.includes('|') && transform.split('|').includes('key')) {
      throw invalid(
        'combines |key with another transform (|key renders its own text: cased, it would no longer sort)',
        at,
      );
    }
    if (!['lower', 'upper', 'key'].includes(transform)) {
      throw invalid(`has an unknown transform '${transform}' (lower, upper or key)`, at);
    }
  }
  let width = 0;
  const colon = body.indexOf(':');
  if (colon >= 0) {
    const spec = body.substring(colon + 1);
    body = body.substring(0, colon);
    if (!/^0?[1-9][0-9]?$/.test(spec)) {
      throw invalid(`has a padding '${spec}' that is not a width such as 08`, at);
    }
    width = parseInt(spec, 10);
    if (transform === 'key') {
      throw invalid('gives |key a width (|key renders its own text, which sorts without padding)', at);
    }
  }
  if (body === '' || body.includes('{')) {
    throw invalid('has a placeholder without a property name', at);
  }
  return { property: body, width, transform };
}

/**
 * The key a template gives an item ({partitionKey, id, properties: name -> typed value}), or null
 * when a placeholder has no text for it: the item is then not in the view.
 */
export function renderTemplate(parts, item) {
  let out = '';
  for (const p of parts) {
    if (p.literal !== undefined) {
      out += p.literal;
      continue;
    }
    const sortable = p.transform === 'key';
    let text;
    if (p.property === 'partitionKey' || p.property === 'id') {
      const key = item[p.property];
      text = sortable ? sortableText({ type: 'string', value: key }) : key;
    } else {
      const value = item.properties[p.property];
      text = sortable ? sortableText(value) : valueText(value, p.width);
    }
    if (text == null) {
      return null;
    }
    if (sortable) {
      out += text;
      continue;
    }
    if (p.transform === 'lower') {
      text = text.toLowerCase();
    } else if (p.transform === 'upper') {
      text = text.toUpperCase();
    }
    out += '0'.repeat(Math.max(0, p.width - text.length)) + text;
  }
  return out;
}

/** KeyText.of: a value's text in a key, integers and decimals padded after the sign; or null. */
export function valueText(value, width) {
  if (value == null) {
    return null;
  }
  switch (value.type) {
    case 'string':
      return value.value;
    case 'int32':
    case 'int64':
    case 'decimal':
      return afterSign(value.type === 'decimal' ? plainDecimal(value.value) : String(BigInt(value.value)), width);
    case 'double':
      return value.text;
    case 'boolean':
      return String(value.value);
    case 'datetime':
      return isoTicks(value.value);
    case 'guid':
      return value.value.toLowerCase();
    default:
      return null;
  }
}

function afterSign(text, width) {
  if (width === 0 || text[0] !== '-') {
    return text;
  }
  return '-' + '0'.repeat(Math.max(0, width - text.length)) + text.substring(1);
}

/** KeyText.sortable: text in value order, self-delimiting; or null. */
export function sortableText(value) {
  if (value == null) {
    return null;
  }
  switch (value.type) {
    case 'string':
      return sortableString(value.value) + ' ';
    case 'binary':
      return '!#' + [...base64Bytes(value.value)].map((b) => b.toString(16).padStart(2, '0')).join('') + ' ';
    case 'int32':
    case 'int64':
      return sortableNumber(decimalParts(String(BigInt(value.value))));
    case 'decimal':
      return sortableNumber(decimalParts(value.value));
    case 'double':
      return Number.isFinite(value.number) ? sortableNumber(exactDouble(value.number)) : null;
    default:
      return null;
  }
}

function sortableString(s) {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c <= 0x21) {
      out += '!' + String.fromCharCode(0x40 + c);
    } else if (c >= 0x7e && c <= 0x9f) {
      out += '~' + String.fromCharCode(0x40 + c - 0x7e);
    } else {
      out += s[i];
    }
  }
  return out;
}

/** A number as {negative, digits (no leading or trailing zero), exponent}: 0.digits × 10^exponent; null for zero. */
function sortableNumber(n) {
  if (n === null) {
    return '!=';
  }
  const biased = n.exponent + 500;
  const e = n.negative ? 999 - biased : biased;
  const digits = n.negative ? [...n.digits].map((d) => String(9 - Number(d))).join('') : n.digits;
  return '!' + (n.negative ? '<' : '>') + String(e).padStart(3, '0') + digits + (n.negative ? '~' : ' ');
}

/** Decimal text (plain or with an exponent) as sortableNumber's parts. */
function decimalParts(text) {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (!m) {
    throw new Error(`not a number: ${text}`);
  }
  const whole = m[2] || '';
  const fraction = m[3] || '';
  let digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '') {
    return null;
  }
  // value = 0.<whole+fraction> × 10^(whole.length + exp), shifted by the leading zeros dropped
  const leading = (whole + fraction).length - digits.length;
  const exponent = whole.length + Number(m[4] || 0) - leading;
  digits = digits.replace(/0+$/, '');
  return { negative: m[1] === '-', digits, exponent };
}

/** The exact decimal value of a double (Java's new BigDecimal(double)) as sortableNumber's parts. */
function exactDouble(d) {
  if (d === 0) {
    return null;
  }
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, d);
  const bits = view.getBigUint64(0);
  const negative = bits >> 63n === 1n;
  const biasedExponent = Number((bits >> 52n) & 0x7ffn);
  let mantissa = bits & 0xfffffffffffffn;
  let exp2;
  if (biasedExponent === 0) {
    exp2 = -1074;
  } else {
    mantissa |= 1n << 52n;
    exp2 = biasedExponent - 1075;
  }
  // value = mantissa × 2^exp2; for exp2 < 0 that is mantissa × 5^-exp2 / 10^-exp2
  let text;
  if (exp2 >= 0) {
    text = (mantissa << BigInt(exp2)).toString();
  } else {
    const scaled = (mantissa * 5n ** BigInt(-exp2)).toString().padStart(-exp2 + 1, '0');
    text = scaled.slice(0, scaled.length + exp2) + '.' + scaled.slice(scaled.length + exp2);
  }
  const parts = decimalParts(text);
  parts.negative = negative;
  return parts;
}

/** A decimal's plain text without trailing zeros and never an exponent (BigDecimal's, as the server writes it). */
function plainDecimal(text) {
  const n = decimalParts(text);
  if (n === null) {
    return '0';
  }
  const { digits, exponent } = n;
  let plain;
  if (exponent <= 0) {
    plain = '0.' + '0'.repeat(-exponent) + digits;
  } else if (exponent >= digits.length) {
    plain = digits + '0'.repeat(exponent - digits.length);
  } else {
    plain = digits.slice(0, exponent) + '.' + digits.slice(exponent);
  }
  return (n.negative ? '-' : '') + plain;
}

/** A datetime in the server's form, 2026-11-30T12:00:00.0000000Z (UTC, seven fraction digits). */
function isoTicks(text) {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z$/.exec(text);
  if (m) {
    return `${m[1]}.${(m[2] || '').padEnd(7, '0').slice(0, 7)}Z`;
  }
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) {
    return null;
  }
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$10000Z');
}

function base64Bytes(text) {
  const raw = atob(text);
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

/**
 * The items of a query page's JSON text, each as its members' texts in order (numbers as written,
 * strings unquoted, objects and arrays as compact JSON), for the one-line summaries of a list.
 */
export function pageItemTexts(jsonText) {
  const root = new JsonReader(jsonText).document();
  const items = root.kind === 'object' && root.members.get('items');
  if (!items || items.kind !== 'array') {
    return [];
  }
  return items.elements.map((item) => new Map([...item.members].map(([name, node]) => [name, nodeText(node)])));
}

function nodeText(node) {
  switch (node.kind) {
    case 'string':
      return node.value;
    case 'number':
      return node.text;
    case 'boolean':
      return String(node.value);
    case 'null':
      return 'null';
    case 'array':
      return `[${node.elements.map((e) => (e.kind === 'string' ? JSON.stringify(e.value) : nodeText(e))).join(',')}]`;
    default:
      return `{${[...node.members].map(([k, v]) => `${JSON.stringify(k)}:${v.kind === 'string' ? JSON.stringify(v.value) : nodeText(v)}`).join(',')}}`;
  }
}

/**
 * An item from JSON text, typed as the server reads it: {partitionKey, id, properties}. Numbers
 * keep their text (JSON.parse would make 1.0 and 1 alike). Throws on JSON that does not parse.
 */
export function parseTyped(jsonText) {
  const root = new JsonReader(jsonText).document();
  if (root.kind !== 'object') {
    throw new Error('an item is a JSON object');
  }
  const members = root.members;
  const properties = {};
  for (const [name, node] of members) {
    if (name.endsWith(ANNOTATION) || name === 'partitionKey' || name === 'id' || name.startsWith('_')) {
      continue;
    }
    const annotation = members.get(name + ANNOTATION);
    properties[name] = typed(node, annotation && annotation.kind === 'string' ? annotation.value : null);
  }
  const text = (name) => (members.get(name) && members.get(name).kind === 'string' ? members.get(name).value : '');
  return { partitionKey: text('partitionKey'), id: text('id'), properties };
}

function typed(node, edm) {
  switch (edm) {
    case 'Edm.Int64':
      return { type: 'int64', value: node.kind === 'number' ? node.text : node.value };
    case 'Edm.Int32':
      return { type: 'int32', value: node.kind === 'number' ? node.text : node.value };
    case 'Edm.Double': {
      const text = node.kind === 'number' ? node.text : node.value;
      const number = Number(text);
      return { type: 'double', number, text: Number.isFinite(number) ? javaDouble(number) : text };
    }
    case 'Edm.Decimal':
      return { type: 'decimal', value: node.kind === 'number' ? node.text : node.value };
    case 'Edm.DateTime':
      return { type: 'datetime', value: node.value };
    case 'Edm.Guid':
      return { type: 'guid', value: node.value };
    case 'Edm.Binary':
      return { type: 'binary', value: node.value };
    case 'Edm.Boolean':
      return { type: 'boolean', value: node.kind === 'boolean' ? node.value : node.value === 'true' };
    case 'Edm.String':
      return { type: 'string', value: node.value };
    default:
      break;
  }
  switch (node.kind) {
    case 'string':
      return { type: 'string', value: node.value };
    case 'boolean':
      return { type: 'boolean', value: node.value };
    case 'null':
      return { type: 'null' };
    case 'number': {
      if (/^-?\d+$/.test(node.text)) {
        const n = BigInt(node.text);
        return { type: n >= -(2n ** 31n) && n < 2n ** 31n ? 'int32' : 'int64', value: node.text };
      }
      const number = Number(node.text);
      // the server writes Java's Double.toString; a number typed elsewhere gets the same form
      const text = /^-?\d+\.\d+(E-?\d+)?$/.test(node.text) ? node.text : javaDouble(number);
      return { type: 'double', number, text };
    }
    case 'array':
      return { type: 'array' };
    default:
      return { type: 'object' };
  }
}

/** Java's Double.toString form of a finite double: 1.5, 100.0, 1.0E10, 1.0E-5. */
export function javaDouble(d) {
  if (d === 0) {
    return Object.is(d, -0) ? '-0.0' : '0.0';
  }
  const sign = d < 0 ? '-' : '';
  const abs = Math.abs(d);
  const [mantissa, exp] = abs.toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const e = Number(exp);
  if (abs >= 1e-3 && abs < 1e7) {
    const point = e + 1;
    if (point <= 0) {
      return `${sign}0.${'0'.repeat(-point)}${digits}`;
    }
    const whole = digits.slice(0, point).padEnd(point, '0');
    const fraction = digits.slice(point) || '0';
    return `${sign}${whole}.${fraction}`;
  }
  return `${sign}${digits[0]}.${digits.slice(1) || '0'}E${e}`;
}

/** A small JSON reader that keeps each number's text; members in order, duplicates refused. */
class JsonReader {
  constructor(text) {
    this.text = text;
    this.at = 0;
  }

  document() {
    const value = this.value(0);
    this.space();
    if (this.at < this.text.length) {
      this.fail('end of input');
    }
    return value;
  }

  fail(expected) {
    throw new Error(`expected ${expected} at ${this.at}`);
  }

  space() {
    while (/\s/.test(this.text[this.at] || '')) {
      this.at++;
    }
  }

  value(depth) {
    if (depth > 64) {
      this.fail('less nesting');
    }
    this.space();
    const c = this.text[this.at];
    if (c === '{') {
      this.at++;
      const members = new Map();
      this.space();
      if (this.text[this.at] === '}') {
        this.at++;
        return { kind: 'object', members };
      }
      for (;;) {
        this.space();
        if (this.text[this.at] !== '"') {
          this.fail('a member name');
        }
        const name = this.string();
        if (members.has(name)) {
          throw new Error(`duplicate member "${name}"`);
        }
        this.space();
        if (this.text[this.at++] !== ':') {
          this.fail("':'");
        }
        members.set(name, this.value(depth + 1));
        this.space();
        const next = this.text[this.at++];
        if (next === '}') {
          return { kind: 'object', members };
        }
        if (next !== ',') {
          this.fail("',' or '}'");
        }
      }
    }
    if (c === '[') {
      this.at++;
      const elements = [];
      this.space();
      if (this.text[this.at] === ']') {
        this.at++;
        return { kind: 'array', elements };
      }
      for (;;) {
        elements.push(this.value(depth + 1));
        this.space();
        const next = this.text[this.at++];
        if (next === ']') {
          return { kind: 'array', elements };
        }
        if (next !== ',') {
          this.fail("',' or ']'");
        }
      }
    }
    if (c === '"') {
      return { kind: 'string', value: this.string() };
    }
    for (const [word, node] of [
      ['true', { kind: 'boolean', value: true }],
      ['false', { kind: 'boolean', value: false }],
      ['null', { kind: 'null' }],
    ]) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return node;
      }
    }
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.at, this.at + 400));
    if (!m) {
      this.fail('a value');
    }
    this.at += m[0].length;
    return { kind: 'number', text: m[0] };
  }

  string() {
    const start = this.at;
    this.at++;
    for (;;) {
      const c = this.text[this.at];
      if (c === undefined) {
        this.fail('\'"\'');
      }
      if (c === '\\') {
        this.at += 2;
      } else if (c === '"') {
        this.at++;
        return JSON.parse(this.text.slice(start, this.at));
      } else {
        this.at++;
      }
    }
  }
}
