// One object a page shows and changes (a policy, a firewall, a webhook endpoint): loaded through useAsync, then
// replaced in place by each mutation's answer (`set`) or a quiet re-fetch (`refresh`, no loading flash), and
// polled while `pollWhile` holds (e.g. a policy's assignments still syncing; docs/console.md "Pages").
import { useCallback, useEffect, useRef, useState } from 'react';
import { useAsync, type AsyncState } from './use-async';

export const POLL_MS = 2000;

export function useResource<T>(
  load: () => Promise<T>,
  opts: { key: string; pollWhile?: (data: T) => boolean },
): { state: AsyncState<T> & { reload: () => void }; set: (data: T) => void; refresh: () => Promise<void> } {
  const state = useAsync(load, opts.key);
  const [local, setLocal] = useState<{ base: T | undefined; data: T } | null>(null);
  const loadRef = useRef(load);
  loadRef.current = load;
  const base = state.data;
  const set = useCallback((data: T) => setLocal({ base, data }), [base]);
  const refresh = useCallback(async () => set(await loadRef.current()), [set]);
  const current = local && local.base === base ? local.data : base;
  const polling = current !== undefined && opts.pollWhile ? opts.pollWhile(current) : false;
  useEffect(() => {
    if (!polling) return;
    const timer = setTimeout(() => void refresh().catch(() => undefined), POLL_MS);
    return () => clearTimeout(timer);
  }, [polling, current, refresh]);
  const merged = (state.status === 'ready' ? { ...state, data: current as T } : state) as AsyncState<T> & {
    reload: () => void;
  };
  return { state: merged, set, refresh };
}
