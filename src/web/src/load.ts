import { useCallback, useEffect, useRef, useState, type DependencyList } from 'react';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/**
 * Runs an async read when its dependencies change (and on `reload`), keeping the last answer on
 * screen while the next one loads; an answer that arrives after a newer request is dropped.
 */
export function useLoad<T>(read: () => Promise<T>, deps: DependencyList): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({ data: undefined, error: undefined, loading: true });
  const latest = useRef(0);
  const [tick, setTick] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `read` is a fresh closure each render; the caller's deps say when it means something new
  useEffect(() => {
    const request = ++latest.current;
    setState((previous) => ({ ...previous, loading: true }));
    read().then(
      (data) => request === latest.current && setState({ data, error: undefined, loading: false }),
      (error: unknown) => request === latest.current && setState((previous) => ({ data: previous.data, error, loading: false })),
    );
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((value) => value + 1), []);
  return { ...state, reload };
}
