// Small pieces every page uses: status badges, messages, time formats, polling, loading state.
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { describeError } from './api.ts';

export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge status-${status}`}>{status}</span>;
}

/** An error message, announced to screen readers as it appears. */
export function ErrorText({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {describeError(error)}
    </p>
  );
}

export function Notice({ children }: { children: ComponentChildren }) {
  return (
    <p class="notice" role="status">
      {children}
    </p>
  );
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
export const formatDateTime = (iso: string | null | undefined) => (iso ? dateTime.format(new Date(iso)) : '—');

export const pad2 = (n: number) => String(n).padStart(2, '0');
/** HH:MM in the viewer's time zone. */
export const localTime = (d: Date) => `${pad2(d.getHours())}:${pad2(d.getMinutes())}`;

export const accountLabel = (a: { username: string; platform: string }) => `${a.username} (${a.platform})`;

export const FINAL_POST = new Set(['published', 'partial', 'failed', 'draft', 'scheduled']);
export const isSettling = (post: { status: string; platforms?: { status: string }[] }) =>
  post.status === 'publishing' || (post.platforms ?? []).some((t) => t.status === 'publishing');

/** Loads once and on demand; `reload` runs it again. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const seq = useRef(0);
  const reload = useCallback(async () => {
    const mine = ++seq.current;
    setLoading(true);
    try {
      const value = await load();
      if (mine === seq.current) {
        setData(value);
        setError(null);
      }
    } catch (err) {
      if (mine === seq.current) setError(err);
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  }, deps);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, setData, error, loading, reload };
}

/**
 * Live status by polling (see docs/dashboard.md): while `active`, runs `tick` every `everyMs`, waiting for
 * each answer before the next, and not while the tab is hidden.
 */
export function usePolling(active: boolean, tick: () => Promise<unknown>, everyMs = 1000) {
  const tickRef = useRef(tick);
  tickRef.current = tick;
  useEffect(() => {
    if (!active) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      if (stopped) return;
      if (!document.hidden) await tickRef.current().catch(() => {});
      if (!stopped) timer = setTimeout(run, everyMs);
    };
    timer = setTimeout(run, everyMs);
    const onVisible = () => {
      if (!document.hidden && !stopped) {
        clearTimeout(timer);
        void run();
      }
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [active, everyMs]);
}

export function PageTitle({ children }: { children: string }) {
  useEffect(() => {
    document.title = `${children} · Herald`;
  }, [children]);
  return (
    <h1 id="page-title" tabIndex={-1}>
      {children}
    </h1>
  );
}

/** The time zones the browser knows, the viewer's first. */
export function timeZones(): string[] {
  const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [own, ...all.filter((z) => z !== own && z !== 'UTC'), ...(own === 'UTC' ? [] : ['UTC'])];
}
