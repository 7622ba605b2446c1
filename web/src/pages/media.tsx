// Media: the key's library (API.md section 10): upload, alt text, delete.
import { useState } from 'preact/hooks';
import { ApiError, api } from '../api.ts';
import { MediaDrop } from '../media-upload.tsx';
import { ErrorText, PageTitle, formatDateTime, useLoad } from '../ui.tsx';

export function MediaPage() {
  const { data, error, reload, setData } = useLoad(() => api<{ media: any[]; cursor: string | null }>('GET', '/v1/media?limit=50'));
  const [actionError, setActionError] = useState<unknown>(null);
  const [saved, setSaved] = useState('');
  const missing = error instanceof ApiError && error.status === 404;

  return (
    <section aria-labelledby="page-title">
      <PageTitle>Media</PageTitle>
      {missing ? (
        <p class="notice">This Herald has no media library yet (GET /v1/media answered 404). Posts can still use media by URL.</p>
      ) : (
        <>
          <MediaDrop label="Upload media" onUploaded={() => void reload()} />
          <ErrorText error={error} />
          <ErrorText error={actionError} />
          {saved && <p role="status">{saved}</p>}
          <ul class="media-grid">
            {(data?.media ?? []).map((m) => (
              <li key={m.id} data-media-id={m.id}>
                {m.type === 'image' ? <img src={m.url} alt={m.altText ?? ''} width={160} height={160} /> : <span class="badge">{m.type}</span>}
                <div class="muted">
                  {m.contentType}, {Math.round(m.bytes / 1024)} KB{m.width ? `, ${m.width}×${m.height}` : ''} · {formatDateTime(m.createdAt)}
                </div>
                <form
                  onSubmit={async (e) => {
                    e.preventDefault();
                    const altText = (new FormData(e.currentTarget).get('altText') as string) ?? '';
                    try {
                      await api('PATCH', `/v1/media/${m.id}`, { altText });
                      setSaved('Alt text saved.');
                    } catch (err) {
                      setActionError(err);
                    }
                  }}
                >
                  <label>
                    Alt text
                    <input name="altText" type="text" maxLength={1000} defaultValue={m.altText ?? ''} />
                  </label>
                  <button type="submit">Save alt text</button>
                  <button
                    type="button"
                    class="danger"
                    onClick={async () => {
                      if (!confirm('Delete this file from the library?')) return;
                      try {
                        await api('DELETE', `/v1/media/${m.id}`);
                        setData({ ...data!, media: data!.media.filter((x) => x.id !== m.id) });
                      } catch (err) {
                        setActionError(err);
                      }
                    }}
                  >
                    Delete
                  </button>
                </form>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
