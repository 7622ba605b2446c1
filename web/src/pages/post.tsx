// One post: each target's status, its link on the platform, its error; Retry, Edit, Unpublish and Delete
// where they apply. Updated in place while a target publishes.
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { navigate } from '../router.ts';
import { ErrorText, PageTitle, StatusBadge, formatDateTime, isSettling, useLoad, usePolling } from '../ui.tsx';

export function PostPage({ id }: { id: string }) {
  const { data: post, setData, error, reload } = useLoad(() => api('GET', `/v1/posts/${encodeURIComponent(id)}`), [id]);
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<unknown>(null);
  const [message, setMessage] = useState('');
  const [editing, setEditing] = useState<string | null>(null);

  usePolling(Boolean(post && isSettling(post)), async () => setData(await api('GET', `/v1/posts/${encodeURIComponent(id)}`)));

  const act = async (what: () => Promise<unknown>, done: string) => {
    setBusy(true);
    setActionError(null);
    setMessage('');
    try {
      await what();
      setMessage(done);
      await reload();
    } catch (err) {
      setActionError(err);
    } finally {
      setBusy(false);
    }
  };

  if (error) {
    return (
      <section aria-labelledby="page-title">
        <PageTitle>Post</PageTitle>
        <ErrorText error={error} />
      </section>
    );
  }
  if (!post) return <p class="muted">Loading…</p>;

  const targets: any[] = post.platforms ?? [];
  const canRetry = targets.some((t) => t.status === 'failed' || t.firstComment?.status === 'failed');
  const published = targets.filter((t) => t.status === 'published');
  const changeable = post.status === 'draft' || post.status === 'scheduled';
  const canEdit = changeable || published.length > 0;

  return (
    <section aria-labelledby="page-title">
      <PageTitle>Post</PageTitle>
      <dl class="facts">
        <dt>Status</dt>
        <dd data-testid="post-status">
          <StatusBadge status={post.status} />
        </dd>
        <dt>Content</dt>
        <dd class="content">{post.content || '(none)'}</dd>
        {post.scheduledFor && (
          <>
            <dt>Scheduled for</dt>
            <dd>{`${formatDateTime(post.scheduledFor)} (${post.timezone})`}</dd>
          </>
        )}
        {post.publishedAt && (
          <>
            <dt>Published</dt>
            <dd>{formatDateTime(post.publishedAt)}</dd>
          </>
        )}
        <dt>Created</dt>
        <dd>{formatDateTime(post.createdAt)}</dd>
        <dt>Id</dt>
        <dd>
          <code>{post.id}</code>
        </dd>
      </dl>

      <h2>Targets</h2>
      <table class="list">
        <thead>
          <tr>
            <th scope="col">Platform</th>
            <th scope="col">Account</th>
            <th scope="col">Status</th>
            <th scope="col">On the platform</th>
            <th scope="col">Error</th>
          </tr>
        </thead>
        <tbody>
          {targets.map((t) => (
            <tr key={`${t.platform}:${t.accountId}`} data-target={`${t.platform}:${t.accountId}`}>
              <td>{t.platform}</td>
              <td>{t.accountId}</td>
              <td>
                <StatusBadge status={t.status} />
                {t.attempts > 1 && <span class="muted"> {t.attempts} attempts</span>}
              </td>
              <td>
                {t.platformPostUrl ? (
                  <a href={t.platformPostUrl} target="_blank" rel="noopener noreferrer">
                    {`View on ${t.platform}`}
                  </a>
                ) : (
                  '—'
                )}
              </td>
              <td>
                {t.error ? (
                  <span class="error">
                    {t.error} {t.errorCode && <code>{t.errorCode}</code>}
                  </span>
                ) : (
                  '—'
                )}
                {t.firstComment && <div class="muted">First comment: {t.firstComment.status}{t.firstComment.error ? ` — ${t.firstComment.error}` : ''}</div>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <div class="actions">
        {canRetry && (
          <button type="button" disabled={busy} onClick={() => act(() => api('POST', `/v1/posts/${post.id}/retry`, undefined, { 'idempotency-key': crypto.randomUUID() }), 'Retried.')}>
            Retry
          </button>
        )}
        {canEdit && (
          <button type="button" disabled={busy} aria-expanded={editing !== null} onClick={() => setEditing(editing === null ? post.content ?? '' : null)}>
            Edit
          </button>
        )}
        {published.length > 0 && (
          <button
            type="button"
            disabled={busy}
            onClick={() => confirm('Remove this post from every platform it was published on?') && act(() => api('POST', `/v1/posts/${post.id}/unpublish`, {}), 'Unpublished.')}
          >
            Unpublish
          </button>
        )}
        <button
          type="button"
          class="danger"
          disabled={busy}
          onClick={async () => {
            if (!confirm('Delete this post from Herald? Published copies stay on the platforms.')) return;
            setBusy(true);
            try {
              await api('DELETE', `/v1/posts/${post.id}`);
              navigate('/app/posts');
            } catch (err) {
              setActionError(err);
              setBusy(false);
            }
          }}
        >
          Delete
        </button>
      </div>
      {editing !== null && (
        <form
          class="edit"
          onSubmit={(e) => {
            e.preventDefault();
            const content = editing;
            void act(async () => {
              if (changeable) await api('PATCH', `/v1/posts/${post.id}`, { content }, { 'idempotency-key': crypto.randomUUID() });
              else await api('POST', `/v1/posts/${post.id}/edit`, { content }, { 'idempotency-key': crypto.randomUUID() });
              setEditing(null);
            }, 'Saved.');
          }}
        >
          <label class="field">
            New content
            <textarea rows={4} value={editing} onInput={(e) => setEditing(e.currentTarget.value)} />
          </label>
          <button type="submit" disabled={busy}>
            Save changes
          </button>
        </form>
      )}
      {message && <p role="status">{message}</p>}
      <ErrorText error={actionError} />
    </section>
  );
}
