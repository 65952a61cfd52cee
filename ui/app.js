// The shell of krino's web UI: top navigation, the API key prompt, the theme switch, and the view
// of the current URL (views/index.js). Served by krino serve from the binary; it talks only to the
// server that served it.
import { apiKey, onKeyChange, onUnauthorized, setApiKey } from './lib/api.js';
import { html, render, useEffect, useRef, useState } from './lib/preact.js';
import { matchPath, useLocation } from './lib/router.js';
import { RefreshContext } from './components/use_api.js';
import { views } from './views/index.js';

const THEMES = ['auto', 'light', 'dark'];
function applyTheme(theme) {
  if (theme === 'auto') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}

function ThemeSwitch() {
  const [theme, setTheme] = useState(() => localStorage.getItem('krino.theme') ?? 'auto');
  useEffect(() => {
    applyTheme(theme);
    localStorage.setItem('krino.theme', theme);
  }, [theme]);
  const next = THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length];
  return html`<button type="button" class="ghost" onClick=${() => setTheme(next)} aria-label=${`Theme: ${theme}. Switch to ${next}`}>Theme: ${theme}</button>`;
}

const sentence = (text) => (/[.!?]$/.test(text) ? text : `${text}.`);

// Asked for when the server answers 401: the key stays in this tab's sessionStorage.
function KeyPrompt({ open, reason, close, saved }) {
  const [text, setText] = useState('');
  const input = useRef(null);
  useEffect(() => { if (open) input.current?.focus(); }, [open]);
  if (!open) return null;
  const save = (event) => {
    event.preventDefault();
    setApiKey(text.trim());
    setText('');
    saved();
  };
  return html`
    <div class="overlay">
      <form class="dialog" role="dialog" aria-modal="true" aria-labelledby="key-title" onSubmit=${save}
        onKeyDown=${(event) => { if (event.key === 'Escape') close(); }}>
        <h2 id="key-title">API key</h2>
        <p>${sentence(reason ?? 'This server needs a key to show this')} The key is kept in this tab only and sent only to this server.</p>
        <label>Key <input ref=${input} type="password" name="apiKey" autocomplete="off" required value=${text} onInput=${(event) => setText(event.target.value)} /></label>
        <div class="dialog-actions">
          <button type="submit">Use key</button>
          ${apiKey() && html`<button type="button" onClick=${() => { setApiKey(null); saved(); }}>Forget key</button>`}
          <button type="button" class="ghost" onClick=${close}>Cancel</button>
        </div>
      </form>
    </div>`;
}

function NotFound() {
  return html`<h1>Not found</h1><p>No view has this address. <a href="/">Back to the dashboard</a>.</p>`;
}

function App() {
  const location = useLocation();
  const [refresh, setRefresh] = useState(0);
  const [prompt, setPrompt] = useState({ open: false });
  const main = useRef(null);
  useEffect(() => onUnauthorized((error) => setPrompt({ open: true, reason: error.message })), []);
  const [, setKeyVersion] = useState(0);
  useEffect(() => onKeyChange(() => setKeyVersion((v) => v + 1)), []);
  let match = null;
  for (const entry of views) {
    const params = matchPath(entry.path, location.path);
    if (params) {
      match = { entry, params };
      break;
    }
  }
  const View = match ? match.entry.view : NotFound;
  const title = match ? match.entry.title : 'Not found';
  // A new view: the title says where we are, and focus moves to it (screen readers hear it). Not on
  // the first load, where the page starts at the top and the skip link comes first.
  const firstView = useRef(true);
  useEffect(() => {
    document.title = `${title} \u00b7 krino`;
    if (!firstView.current) main.current?.focus({ preventScroll: true });
    firstView.current = false;
  }, [location.path]);
  return html`
    <a class="skip" href="#main">Skip to content</a>
    <header class="top">
      <a class="brand" href="/">krino</a>
      <nav aria-label="Main">
        <ul>${views.filter((v) => v.nav).map((v) => html`<li><a href=${v.path} aria-current=${match?.entry === v ? 'page' : undefined}>${v.nav}</a></li>`)}</ul>
      </nav>
      <div class="tools">
        <button type="button" class="ghost" onClick=${() => setPrompt({ open: true, reason: 'Enter an API key.' })}>${apiKey() ? 'Key set' : 'API key'}</button>
        <${ThemeSwitch} />
      </div>
    </header>
    <main id="main" ref=${main} tabindex="-1">
      <${RefreshContext.Provider} value=${refresh}>
        <${View} key=${location.path} params=${match?.params ?? {}} query=${location.query} />
      </${RefreshContext.Provider}>
    </main>
    <${KeyPrompt} open=${prompt.open} reason=${prompt.reason} close=${() => setPrompt({ open: false })}
      saved=${() => { setPrompt({ open: false }); setRefresh(refresh + 1); }} />`;
}

applyTheme(localStorage.getItem('krino.theme') ?? 'auto');
render(html`<${App} />`, document.getElementById('app'));
