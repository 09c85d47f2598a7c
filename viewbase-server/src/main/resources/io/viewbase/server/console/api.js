// Every call the console makes to the native API (docs/http-api.md), in one place: paths and
// percent-encoding, JSON bodies, the API key, and errors as ApiError with the API's own code and
// message. The console uses nothing but this module to reach the server.

const KEY = 'viewbase.apiKey';

/** A refused request: the API's error code, message and named fields, and the HTTP status. */
export class ApiError extends Error {
  constructor(status, code, message, details = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

let keyPrompt = null;

/**
 * Sets what asks the user for a key when the server answers 401 (ApiKeyRequired, ApiKeyInvalid):
 * prompt(error) resolves to the key to retry with, or null to give up.
 */
export function onKeyNeeded(prompt) {
  keyPrompt = prompt;
}

export function apiKey() {
  return sessionStorage.getItem(KEY);
}

export function setApiKey(key) {
  if (key) {
    sessionStorage.setItem(KEY, key);
  } else {
    sessionStorage.removeItem(KEY);
  }
}

const seg = (s) => encodeURIComponent(s);

/**
 * One request. Answers {status, etag, body (parsed JSON or null), text}; throws ApiError for a
 * refusal (every non-2xx), after asking for a key once per 401.
 */
export async function call(method, path, { body, headers = {}, signal } = {}) {
  for (;;) {
    const sent = { ...headers };
    const key = apiKey();
    if (key) {
      sent.Authorization = `Bearer ${key}`;
    }
    if (body !== undefined) {
      sent['Content-Type'] = 'application/json';
    }
    let response;
    try {
      response = await fetch(path, {
        method,
        headers: sent,
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
        signal,
        cache: 'no-store',
      });
    } catch (e) {
      if (e.name === 'AbortError') {
        throw e;
      }
      throw new ApiError(0, 'Unreachable', `The server could not be reached (${e.message})`);
    }
    const text = await response.text();
    if (response.ok) {
      return { status: response.status, etag: response.headers.get('ETag'), body: text ? JSON.parse(text) : null, text };
    }
    const error = refusal(response.status, text);
    if (response.status === 401 && keyPrompt) {
      const entered = await keyPrompt(error);
      if (entered) {
        setApiKey(entered);
        continue;
      }
    }
    throw error;
  }
}

function refusal(status, text) {
  try {
    const { code, message, ...details } = JSON.parse(text).error;
    return new ApiError(status, code, message, details);
  } catch {
    return new ApiError(status, `HTTP${status}`, text || 'The server refused the request');
  }
}

function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '' && v !== false) {
      q.set(k, String(v));
    }
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

// Tables
export const listTables = () => call('GET', '/v1/tables');
export const getTable = (t) => call('GET', `/v1/tables/${seg(t)}`);
export const createTable = (t, options) => call('PUT', `/v1/tables/${seg(t)}`, { body: options });
export const alterTable = (t, options) => call('PATCH', `/v1/tables/${seg(t)}`, { body: options });
export const deleteTable = (t) => call('DELETE', `/v1/tables/${seg(t)}`);

// Items
const itemPath = (t, pk, id) => `/v1/tables/${seg(t)}/items/${seg(pk)}/${seg(id)}`;
export const getItem = (t, pk, id) => call('GET', itemPath(t, pk, id));
/** Insert only: 409 ItemAlreadyExists if the item is there. */
export const insertItem = (t, pk, id, body) => call('PUT', itemPath(t, pk, id), { body, headers: { 'If-None-Match': '*' } });
/** Replace the version ifMatch names (an ETag, or '*' for any version of an existing item). */
export const replaceItem = (t, pk, id, body, ifMatch) => call('PUT', itemPath(t, pk, id), { body, headers: { 'If-Match': ifMatch } });
export const deleteItem = (t, pk, id, ifMatch) => call('DELETE', itemPath(t, pk, id), { headers: ifMatch ? { 'If-Match': ifMatch } : {} });

// Queries: {prefix, from, to, desc, select, limit, continuation} and {filter, explain}
export const partitionQuery = (t, pk, params = {}) => call('GET', `/v1/tables/${seg(t)}/items/${seg(pk)}${query(params)}`);
export const tableQuery = (t, params = {}) => call('GET', `/v1/tables/${seg(t)}/items${query(params)}`);

// Change feed: a long-poll when wait is given ('20s')
export const changes = (t, params, signal) => call('GET', `/v1/tables/${seg(t)}/changes${query(params)}`, { signal });

// Views
export const getView = (v) => call('GET', `/v1/views/${seg(v)}`);
export const createView = (v, definition) => call('PUT', `/v1/views/${seg(v)}`, { body: definition });
export const deleteView = (v) => call('DELETE', `/v1/views/${seg(v)}`);
export const verifyView = (v, repair) => call('POST', `/v1/views/${seg(v)}/verify${query({ repair })}`);
