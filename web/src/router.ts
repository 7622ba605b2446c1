// A small router over the History API: paths below /app, links that stay in the page, focus moved to
// the new page's heading so keyboard and screen-reader users land where the content changed.
import { useEffect, useState } from 'preact/hooks';

export const BASE = '/app';
const listeners = new Set<() => void>();

export function navigate(to: string, replace = false): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  for (const l of listeners) l();
}

/** The address, and a count of visits: following a link to the page shown loads it afresh. */
export function useLocation(): { url: URL; visit: number } {
  const [state, setState] = useState(() => ({ url: new URL(location.href), visit: 0 }));
  useEffect(() => {
    const update = () => setState((s) => ({ url: new URL(location.href), visit: s.visit + 1 }));
    listeners.add(update);
    addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      removeEventListener('popstate', update);
    };
  }, []);
  return state;
}

/** Clicks on same-origin links below /app change the page without loading it again. */
export function interceptLinks(root: HTMLElement): void {
  root.addEventListener('click', (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = (e.target as Element).closest('a');
    if (!a || a.target || a.hasAttribute('download')) return;
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin || !url.pathname.startsWith(BASE)) return;
    e.preventDefault();
    navigate(url.pathname + url.search);
  });
}

export interface Match {
  page: string;
  params: Record<string, string>;
}

const ROUTES: [RegExp, string, string[]][] = [
  [/^\/app\/?$/, 'calendar', []],
  [/^\/app\/calendar\/?$/, 'calendar', []],
  [/^\/app\/compose\/?$/, 'compose', []],
  [/^\/app\/posts\/?$/, 'posts', []],
  [/^\/app\/posts\/([^/]+)\/?$/, 'post', ['id']],
  [/^\/app\/media\/?$/, 'media', []],
  [/^\/app\/accounts\/?$/, 'accounts', []],
  [/^\/app\/accounts\/callback\/([^/]+)\/?$/, 'callback', ['platform']],
  [/^\/app\/webhooks\/?$/, 'webhooks', []],
  [/^\/app\/queue\/?$/, 'queue', []],
];

export function match(pathname: string): Match {
  for (const [re, page, names] of ROUTES) {
    const m = re.exec(pathname);
    if (m) return { page, params: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)])) };
  }
  return { page: 'missing', params: {} };
}
