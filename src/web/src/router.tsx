import { useEffect, useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

/**
 * A router of a few lines: the path is the state, `navigate` pushes it, links intercept plain
 * left clicks. The app has eight pages; a routing library would cost more bytes than it saves.
 */
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
window.addEventListener('popstate', notify);

/** The page of a market, by its slug (the app's one spelling of that path). */
export const marketPath = (slug: string) => `/market/${encodeURIComponent(slug)}`;

export function navigate(to: string): void {
  if (to === location.pathname + location.search) return;
  history.pushState(null, '', to);
  window.scrollTo(0, 0);
  notify();
}

export function usePath(): string {
  return useSyncExternalStore(subscribe, () => location.pathname);
}

/** The query string as state (search box, filters), replaced without a history entry. */
export function useQuery(): URLSearchParams {
  const search = useSyncExternalStore(subscribe, () => location.search);
  return new URLSearchParams(search);
}

export function setQuery(params: Record<string, string | undefined>): void {
  const query = new URLSearchParams(location.search);
  for (const [key, value] of Object.entries(params)) {
    if (value) query.set(key, value);
    else query.delete(key);
  }
  const text = query.toString();
  history.replaceState(null, '', `${location.pathname}${text ? `?${text}` : ''}`);
  notify();
}

/** `/market/:slug` against `/market/abc` → { slug: 'abc' }; undefined when it does not match. */
export function match(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i]!.startsWith(':')) params[want[i]!.slice(1)] = decodeURIComponent(got[i]!);
    else if (want[i] !== got[i]) return undefined;
  }
  return params;
}

export function Link({ to, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={onClick} {...rest} />;
}

export function useTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · PMX` : 'PMX markets';
  }, [title]);
}
