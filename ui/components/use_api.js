// Loads one API path and re-loads it when the path changes or the key changes (refresh()).
// An answer that arrives after the path changed is dropped, so a fast filter never shows the page
// of the filter before it.
import { api } from '../lib/api.js';
import { createContext, useContext, useEffect, useState } from '../lib/preact.js';

// Bumped by the shell when a key is entered, so every view loads again with it.
export const RefreshContext = createContext(0);

export function useApi(path, version = 0) {
  const refresh = useContext(RefreshContext);
  const [state, setState] = useState({ data: null, error: null, loading: Boolean(path) });
  useEffect(() => {
    if (!path) {
      setState({ data: null, error: null, loading: false });
      return undefined;
    }
    const controller = new AbortController();
    setState((previous) => ({ data: previous.data, error: null, loading: true }));
    api(path, { signal: controller.signal }).then(
      (data) => setState({ data, error: null, loading: false }),
      (error) => {
        if (error.name !== 'AbortError') setState({ data: null, error, loading: false });
      },
    );
    return () => controller.abort();
  }, [path, refresh, version]);
  return state;
}
