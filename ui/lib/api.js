// Calls to krino serve's JSON API (/api/v1). The API key, when the server asks for one, lives in
// sessionStorage: it is gone when the tab closes, and is sent only to this server.
const KEY_STORAGE = 'krino.apiKey';

export const apiKey = () => sessionStorage.getItem(KEY_STORAGE);
const keyListeners = new Set();
// The shell shows whether a key is set; it hears of every change here.
export function onKeyChange(listener) {
  keyListeners.add(listener);
  return () => keyListeners.delete(listener);
}
export function setApiKey(key) {
  if (key) sessionStorage.setItem(KEY_STORAGE, key);
  else sessionStorage.removeItem(KEY_STORAGE);
  keyListeners.forEach((listener) => listener());
}

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

let unauthorizedListener = null;
// The shell asks for a key when a call answers 401.
export function onUnauthorized(listener) { unauthorizedListener = listener; }

// A number that JSON.parse would change (an integer beyond 2^53) keeps the text it was sent as, so
// an item's inputs and outputs show what was stored, digit for digit.
export class ExactNumber {
  constructor(text) { this.text = text; }
  toString() { return this.text; }
}
function keepExactNumbers(key, value, context) {
  if (typeof value === 'number' && context && typeof context.source === 'string' &&
      Number.isInteger(value) && !Number.isSafeInteger(value) && /^-?\d+$/.test(context.source)) {
    return new ExactNumber(context.source);
  }
  return value;
}

// JSON text -> its value, big integers kept as ExactNumber (as the API's answers are read).
export const parseExact = (text) => JSON.parse(text, keepExactNumbers);

// Turns {a: 1, b: null, c: ''} into "?a=1" (empty values are left out).
export function queryString(params) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') query.set(name, String(value));
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

export async function api(path, { method = 'GET', body, signal } = {}) {
  const headers = { Accept: 'application/json' };
  const key = apiKey();
  if (key) headers.Authorization = `Bearer ${key}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`/api/v1${path}`, {
    method, headers, signal, body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 204) return null;
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text, keepExactNumbers) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = new ApiError(response.status, data?.error ?? `http_${response.status}`,
      data?.message ?? `${response.status} ${response.statusText}`);
    if (response.status === 401 && unauthorizedListener) unauthorizedListener(error);
    throw error;
  }
  return data;
}
