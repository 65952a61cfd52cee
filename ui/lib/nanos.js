// OTLP times are Unix nanoseconds sent as decimal strings (beyond 2^53, so never JavaScript
// numbers): they are read as BigInt, and only differences small enough to be exact become numbers.
import { DASH } from './format.js';

export function toBigInt(text) {
  try {
    return text == null || text === '' ? null : BigInt(String(text));
  } catch {
    return null;
  }
}

// Nanoseconds -> "2024-06-10 06:13:20.123 UTC" (milliseconds kept: spans are often shorter than a second).
export function nanosWhen(text) {
  const nanos = toBigInt(text);
  if (nanos === null) return DASH;
  const date = new Date(Number(nanos / 1000000n));
  if (Number.isNaN(date.getTime())) return String(text);
  return `${date.toISOString().slice(0, 23).replace('T', ' ')} UTC`;
}

// end - start in milliseconds (fractions kept), or null.
export function nanosBetween(startText, endText) {
  const start = toBigInt(startText);
  const end = toBigInt(endText);
  if (start === null || end === null) return null;
  return Number(end - start) / 1e6;
}

// A datetime-local field's value ("2024-06-10T06:13"), read as UTC -> Unix nanoseconds as text.
export function localToNanos(value) {
  if (!value) return '';
  const ms = Date.parse(`${value}Z`);
  return Number.isFinite(ms) ? (BigInt(ms) * 1000000n).toString() : '';
}
