// Client-side routing over the History API: every view has a URL (filters in its query string),
// links are ordinary <a href> (so keyboard, middle-click and "copy link" work), and the back
// button walks the history.
import { useEffect, useState } from './preact.js';

const listeners = new Set();
const notify = () => listeners.forEach((listener) => listener());

export function currentLocation() {
  return { path: window.location.pathname, query: new URLSearchParams(window.location.search) };
}

export function navigate(url, { replace = false } = {}) {
  if (replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  notify();
}

// Changes some query parameters of the current view; empty values are removed. Typing in a search
// box replaces the history entry instead of adding one per key.
export function setQuery(changes, { replace = false } = {}) {
  const query = new URLSearchParams(window.location.search);
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined || value === null || value === '') query.delete(name);
    else query.set(name, String(value));
  }
  const text = query.toString();
  navigate(window.location.pathname + (text ? `?${text}` : ''), { replace });
}

export function useLocation() {
  const [location, setLocation] = useState(currentLocation);
  useEffect(() => {
    const update = () => setLocation(currentLocation());
    listeners.add(update);
    return () => listeners.delete(update);
  }, []);
  return location;
}

// `/runs/:runId` against `/runs/0190...` -> {runId: '0190...'}, or null.
export function matchPath(pattern, path) {
  const expected = pattern.split('/').filter(Boolean);
  const actual = path.split('/').filter(Boolean);
  if (expected.length !== actual.length) return null;
  const params = {};
  for (let i = 0; i < expected.length; i += 1) {
    if (expected[i].startsWith(':')) params[expected[i].slice(1)] = decodeURIComponent(actual[i]);
    else if (expected[i] !== actual[i]) return null;
  }
  return params;
}

window.addEventListener('popstate', notify);

// Same-origin links navigate in the page; anything with a modifier key, a target or a download
// is left to the browser.
document.addEventListener('click', (event) => {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const link = event.target.closest?.('a[href]');
  if (!link || link.target || link.hasAttribute('download')) return;
  const url = new URL(link.href, window.location.href);
  if (url.origin !== window.location.origin || url.pathname.startsWith('/api/')) return;
  event.preventDefault();
  navigate(url.pathname + url.search);
});
