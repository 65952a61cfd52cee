// How numbers and times are shown. Missing values are an em dash, never 0.
import { ExactNumber } from './api.js';

export const DASH = '\u2014';

const isNumber = (value) => typeof value === 'number' && Number.isFinite(value);

export const percent = (value, digits = 1) => (isNumber(value) ? `${(value * 100).toFixed(digits)}%` : DASH);

export function signedPoints(delta) {
  if (!isNumber(delta)) return DASH;
  const points = (delta * 100).toFixed(1);
  return `${delta > 0 ? '+' : ''}${points} pts`;
}

export const integer = (value) => (isNumber(value) ? Math.round(value).toLocaleString('en-US') : DASH);

export function decimal(value, digits = 3) {
  if (!isNumber(value)) return DASH;
  return value.toFixed(digits);
}

export function signed(value, digits = 3) {
  if (!isNumber(value)) return DASH;
  return `${value > 0 ? '+' : ''}${value.toFixed(digits)}`;
}

export function usd(value) {
  if (!isNumber(value)) return DASH;
  if (value === 0) return '$0';
  if (Math.abs(value) < 0.01) return `$${value.toPrecision(3)}`;
  return `$${value.toFixed(value < 100 ? 4 : 2)}`;
}

export function milliseconds(value) {
  if (!isNumber(value)) return DASH;
  if (value < 1000) return `${value.toFixed(value < 10 ? 1 : 0)} ms`;
  if (value < 60000) return `${(value / 1000).toFixed(1)} s`;
  const minutes = Math.floor(value / 60000);
  return `${minutes} min ${Math.round((value % 60000) / 1000)} s`;
}

export function pValue(value) {
  if (!isNumber(value)) return DASH;
  return value < 0.001 ? '< 0.001' : value.toFixed(3);
}

export function interval(range, format = percent) {
  if (!Array.isArray(range) || range.length !== 2) return DASH;
  return `[${format(range[0])}, ${format(range[1])}]`;
}

// ISO 8601 UTC -> "2026-11-27 14:40:05 UTC": the same for every reader of a shared link.
export function when(iso) {
  if (!iso) return DASH;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

export function between(startIso, endIso) {
  if (!startIso || !endIso) return null;
  const ms = new Date(endIso).getTime() - new Date(startIso).getTime();
  return Number.isFinite(ms) ? ms : null;
}

// A JSON value as indented text, numbers as they were sent (ExactNumber keeps big integers).
export function jsonText(value, indent = 2) {
  const text = JSON.stringify(value, (key, item) => (item instanceof ExactNumber ? `\u0000${item.text}\u0000` : item), indent);
  return text === undefined ? DASH : text.replace(/"\\u0000(-?\d+)\\u0000"/g, '$1');
}

// A one-line preview of a value, at most `limit` characters.
export function preview(value, limit = 80) {
  if (value === undefined || value === null) return '';
  let text = typeof value === 'string' ? value : jsonText(value, 0);
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && typeof value[keys[0]] === 'string') text = value[keys[0]];
  }
  return text.length > limit ? `${text.slice(0, limit - 1)}\u2026` : text;
}
