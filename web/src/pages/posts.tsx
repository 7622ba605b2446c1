// Posts: the list with its filters (status, platform, created from / to), page by page; live while any
// post shown is publishing.
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { ErrorText, PageTitle, StatusBadge, formatDateTime, isSettling, useLoad, usePolling } from '../ui.tsx';

const STATUSES = ['draft', 'scheduled', 'publishing', 'published', 'partial', 'failed'];

export function PostsPage({ platforms }: { platforms: string[] }) {
  const [filters, setFilters] = useState({ status: '', platform: '', fromDate: '', toDate: '' });
  const [pages, setPages] = useState<any[][]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const query = (c: string | null) => {
    const q = new URLSearchParams({ limit: '25' });
    for (const [k, v] of Object.entries(filters)) if (v) q.set(k, v);
    if (c) q.set('cursor', c);
    return `/v1/posts?${q}`;
  };
  const first = useLoad(async () => {
    const page = await api<{ posts: any[]; cursor: string | null }>('GET', query(null));
    setPages([page.posts]);
    setCursor(page.cursor);
    return page;
  }, [JSON.stringify(filters)]);
  const [moreError, setMoreError] = useState<unknown>(null);
  const posts = pages.flat();

  usePolling(posts.some(isSettling), async () => {
    const page = await api<{ posts: any[]; cursor: string | null }>('GET', query(null));
    setPages((p) => [page.posts, ...p.slice(1)]);
  });

  const set = (k: keyof typeof filters) => (e: Event) => setFilters({ ...filters, [k]: (e.currentTarget as HTMLInputElement).value });

  return (
    <section aria-labelledby="page-title">
      <PageTitle>Posts</PageTitle>
      <form class="filters inline" role="search" aria-label="Filter posts" onSubmit={(e) => e.preventDefault()}>
        <label>
          Status
          <select value={filters.status} onChange={set('status')}>
            <option value="">any</option>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label>
          Platform
          <select value={filters.platform} onChange={set('platform')}>
            <option value="">any</option>
            {platforms.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        <label>
          Created from
          <input type="date" value={filters.fromDate} onInput={set('fromDate')} />
        </label>
        <label>
          Created to
          <input type="date" value={filters.toDate} onInput={set('toDate')} />
        </label>
      </form>
      <ErrorText error={first.error} />
      {first.loading && posts.length === 0 && <p class="muted">Loading…</p>}
      {!first.loading && posts.length === 0 && !first.error && <p>No posts match.</p>}
      {posts.length > 0 && (
        <table class="list">
          <thead>
            <tr>
              <th scope="col">Post</th>
              <th scope="col">Status</th>
              <th scope="col">Targets</th>
              <th scope="col">Scheduled for</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {posts.map((p) => (
              <tr key={p.id} data-post-id={p.id}>
                <td>
                  <a href={`/app/posts/${p.id}`}>{(p.content ?? '').slice(0, 80) || '(media only)'}</a>
                </td>
                <td>
                  <StatusBadge status={p.status} />
                </td>
                <td>
                  {p.platforms.map((t: any) => (
                    <span key={`${t.platform}:${t.accountId}`} class={`chip status-${t.status}`}>
                      {t.platform} {t.status}
                    </span>
                  ))}
                </td>
                <td>{formatDateTime(p.scheduledFor)}</td>
                <td>{formatDateTime(p.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {cursor && (
        <button
          type="button"
          onClick={async () => {
            try {
              const page = await api<{ posts: any[]; cursor: string | null }>('GET', query(cursor));
              setPages((p) => [...p, page.posts]);
              setCursor(page.cursor);
            } catch (err) {
              setMoreError(err);
            }
          }}
        >
          Load more
        </button>
      )}
      <ErrorText error={moreError} />
    </section>
  );
}
