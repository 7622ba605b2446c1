// Compose: content, targets, per-target overrides in tabs, live character counts and rule messages from
// POST /v1/posts/validate, media (upload or URL) with alt text, and the three ways to send. After sending,
// each target's outcome, updated in place while it publishes.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiError, api } from '../api.ts';
import { MediaDrop, type Uploaded } from '../media-upload.tsx';
import { ErrorText, PageTitle, StatusBadge, accountLabel, isSettling, timeZones, useLoad, usePolling } from '../ui.tsx';

interface Account {
  platform: string;
  accountId: string;
  username: string;
  status: string;
}

interface Attached {
  key: string;
  name: string;
  mediaId?: string;
  url: string;
  type: string;
  altText: string;
}

interface Override {
  content: string;
  settings: string;
}

interface Validation {
  valid: boolean;
  errors: { param: string; code: string; message: string }[];
  targets: { platform: string; accountId: string; valid: boolean; errors: { param: string; message: string }[]; characters?: { used: number; limit: number } }[];
}

const targetKey = (a: { platform: string; accountId: string }) => `${a.platform}:${a.accountId}`;
const guessType = (url: string) => (/\.(mp4|mov|m4v|webm)(\?|$)/i.test(url) ? 'video' : 'image');

export function ComposePage() {
  const accounts = useLoad(() => api<{ accounts: Account[] }>('GET', '/v1/accounts'));
  const [content, setContent] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const [overrides, setOverrides] = useState<Record<string, Override>>({});
  const [tab, setTab] = useState('all');
  const [media, setMedia] = useState<Attached[]>([]);
  const [mediaUrl, setMediaUrl] = useState('');
  const zones = useMemo(timeZones, []);
  const [scheduleFor, setScheduleFor] = useState('');
  const [timezone, setTimezone] = useState(zones[0]!);
  const [validation, setValidation] = useState<Validation | null>(null);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [result, setResult] = useState<any>(null);
  const idempotencyKey = useRef(crypto.randomUUID());

  const list = accounts.data?.accounts ?? [];
  const targets = list.filter((a) => selected.includes(targetKey(a)));

  function body(mode: 'now' | 'schedule' | 'draft'): Record<string, unknown> {
    const platforms = targets.map((a) => {
      const o = overrides[targetKey(a)];
      const t: Record<string, unknown> = { platform: a.platform, accountId: a.accountId };
      if (o?.content.trim()) t.customContent = o.content;
      if (o?.settings.trim()) {
        try {
          t.platformSpecificData = JSON.parse(o.settings);
        } catch {
          t.platformSpecificData = o.settings; // sent as is: the API names the field
        }
      }
      return t;
    });
    const mediaItems = media.map((m) => {
      const item: Record<string, unknown> = m.mediaId ? { mediaId: m.mediaId } : { type: m.type, url: m.url };
      if (m.altText.trim()) item.altText = m.altText.trim();
      return item;
    });
    const out: Record<string, unknown> = { content };
    if (mediaItems.length) out.mediaItems = mediaItems;
    if (platforms.length || mode !== 'draft') out.platforms = platforms;
    if (mode === 'draft') {
      out.isDraft = true;
      if (scheduleFor) Object.assign(out, { scheduledFor: `${scheduleFor}:00`, timezone });
    } else if (mode === 'schedule') Object.assign(out, { scheduledFor: scheduleFor ? `${scheduleFor}:00` : null, timezone });
    else out.publishNow = true;
    return out;
  }

  // Live counts and rules: the API's own checks, a moment after typing stops.
  useEffect(() => {
    if (!content && targets.length === 0 && media.length === 0) {
      setValidation(null);
      return;
    }
    const timer = setTimeout(() => {
      api<Validation>('POST', '/v1/posts/validate', body(scheduleFor ? 'schedule' : 'now'))
        .then(setValidation)
        .catch(() => {});
    }, 300);
    return () => clearTimeout(timer);
  }, [content, selected.join(','), JSON.stringify(overrides), JSON.stringify(media), scheduleFor, timezone, list.length]);

  usePolling(Boolean(result && isSettling(result)), async () => setResult(await api('GET', `/v1/posts/${result.id}`)));

  async function send(mode: 'now' | 'schedule' | 'draft') {
    setSending(true);
    setError(null);
    try {
      const created = await api('POST', '/v1/posts', body(mode), { 'idempotency-key': idempotencyKey.current });
      setResult(created);
      idempotencyKey.current = crypto.randomUUID();
    } catch (err) {
      setError(err);
      // An answered refusal is stored against the key: the corrected post needs a new one. Without an
      // answer (cut connection, 5xx, still running) the same key makes a resend safe.
      if (err instanceof ApiError && err.status < 500 && err.status !== 409) idempotencyKey.current = crypto.randomUUID();
    } finally {
      setSending(false);
    }
  }

  const checkFor = (a: Account) => validation?.targets.find((t) => t.platform === a.platform && t.accountId === a.accountId);
  const tabs = [{ key: 'all', label: 'All accounts' }, ...targets.map((a) => ({ key: targetKey(a), label: accountLabel(a) }))];
  const activeTab = tabs.some((t) => t.key === tab) ? tab : 'all';

  const onTabKey = (e: KeyboardEvent) => {
    const i = tabs.findIndex((t) => t.key === activeTab);
    let next = -1;
    if (e.key === 'ArrowRight') next = (i + 1) % tabs.length;
    else if (e.key === 'ArrowLeft') next = (i - 1 + tabs.length) % tabs.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = tabs.length - 1;
    if (next < 0) return;
    e.preventDefault();
    setTab(tabs[next]!.key);
    (document.getElementById(`tab-${tabs[next]!.key}`) as HTMLElement | null)?.focus();
  };

  return (
    <section aria-labelledby="page-title">
      <PageTitle>Compose</PageTitle>
      <form
        class="compose"
        onSubmit={(e) => {
          e.preventDefault();
          void send(scheduleFor ? 'schedule' : 'now');
        }}
      >
        <fieldset>
          <legend>Post to</legend>
          {accounts.loading && <p class="muted">Loading accounts…</p>}
          <ErrorText error={accounts.error} />
          {!accounts.loading && list.length === 0 && (
            <p>
              No connected accounts yet. <a href="/app/accounts">Connect one</a>.
            </p>
          )}
          <ul class="checks">
            {list.map((a) => (
              <li key={targetKey(a)}>
                <label>
                  <input
                    type="checkbox"
                    checked={selected.includes(targetKey(a))}
                    disabled={a.status !== 'active'}
                    onChange={(e) => {
                      const on = e.currentTarget.checked;
                      setSelected((s) => (on ? [...s, targetKey(a)] : s.filter((k) => k !== targetKey(a))));
                    }}
                  />
                  {accountLabel(a)}
                </label>
                {a.status !== 'active' && <span class="muted"> needs reconnecting</span>}
              </li>
            ))}
          </ul>
        </fieldset>

        <div role="tablist" aria-label="Content for" class="tabs" onKeyDown={onTabKey}>
          {tabs.map((t) => (
            <button
              type="button"
              role="tab"
              id={`tab-${t.key}`}
              key={t.key}
              aria-selected={t.key === activeTab}
              aria-controls={`panel-${t.key}`}
              tabIndex={t.key === activeTab ? 0 : -1}
              onClick={() => setTab(t.key)}
            >
              {t.label}
            </button>
          ))}
        </div>
        {tabs.map((t) => {
          const a = targets.find((x) => targetKey(x) === t.key);
          const o = overrides[t.key] ?? { content: '', settings: '' };
          const set = (patch: Partial<Override>) => setOverrides((all) => ({ ...all, [t.key]: { ...o, ...patch } }));
          return (
            <div role="tabpanel" id={`panel-${t.key}`} aria-labelledby={`tab-${t.key}`} hidden={t.key !== activeTab} key={t.key} class="panel">
              {t.key === 'all' ? (
                <label class="field">
                  Content
                  <textarea rows={6} value={content} onInput={(e) => setContent(e.currentTarget.value)} />
                </label>
              ) : (
                <>
                  <label class="field">
                    {`Custom content for ${t.label}`}
                    <textarea rows={5} value={o.content} placeholder={content} onInput={(e) => set({ content: e.currentTarget.value })} />
                  </label>
                  <label class="field">
                    {`Platform settings for ${t.label} (JSON)`}
                    <textarea rows={3} value={o.settings} placeholder="{}" onInput={(e) => set({ settings: e.currentTarget.value })} />
                  </label>
                  {a && <Counts check={checkFor(a)} label={t.label} />}
                </>
              )}
            </div>
          );
        })}

        {targets.length > 0 && (
          <section aria-label="Checks" class="checks-summary">
            <h2>Checks</h2>
            <ul>
              {targets.map((a) => (
                <li key={targetKey(a)}>
                  <Counts check={checkFor(a)} label={accountLabel(a)} />
                </li>
              ))}
            </ul>
          </section>
        )}
        {validation && validation.errors.length > 0 && (
          <ul class="rule-messages">
            {validation.errors.map((e, i) => (
              <li key={i} class="error">
                {e.message} <span class="muted">({e.param})</span>
              </li>
            ))}
          </ul>
        )}

        <fieldset>
          <legend>Media</legend>
          <MediaDrop
            onUploaded={(m: Uploaded) => setMedia((list) => [...list, { key: m.id, name: m.name, mediaId: m.id, url: m.url, type: m.type, altText: m.altText ?? '' }])}
          />
          <div class="inline">
            <label>
              Media URL
              <input type="url" value={mediaUrl} onInput={(e) => setMediaUrl(e.currentTarget.value)} placeholder="https://…" />
            </label>
            <button
              type="button"
              disabled={!mediaUrl}
              onClick={() => {
                setMedia((list) => [...list, { key: mediaUrl + list.length, name: mediaUrl.split('/').pop() || mediaUrl, url: mediaUrl, type: guessType(mediaUrl), altText: '' }]);
                setMediaUrl('');
              }}
            >
              Add URL
            </button>
          </div>
          <ul class="attached">
            {media.map((m) => (
              <li key={m.key}>
                {m.type === 'image' ? <img src={m.url} alt={m.altText} width={96} height={96} /> : <span class="badge">{m.type}</span>}
                <label>
                  {`Alt text for ${m.name}`}
                  <input type="text" maxLength={1000} value={m.altText} onInput={(e) => {
                    const altText = e.currentTarget.value;
                    setMedia((list) => list.map((x) => (x.key === m.key ? { ...x, altText } : x)));
                  }} />
                </label>
                <button type="button" aria-label={`Remove ${m.name}`} onClick={() => setMedia((list) => list.filter((x) => x.key !== m.key))}>
                  Remove
                </button>
              </li>
            ))}
          </ul>
        </fieldset>

        <fieldset class="inline">
          <legend>When</legend>
          <label>
            Schedule for
            <input type="datetime-local" value={scheduleFor} onInput={(e) => setScheduleFor(e.currentTarget.value)} />
          </label>
          <label>
            Time zone
            <select value={timezone} onChange={(e) => setTimezone(e.currentTarget.value)}>
              {zones.map((z) => (
                <option key={z} value={z}>
                  {z}
                </option>
              ))}
            </select>
          </label>
        </fieldset>

        <div class="actions">
          <button type="button" disabled={sending} onClick={() => send('now')}>
            Publish now
          </button>
          <button type="button" disabled={sending} onClick={() => send('schedule')}>
            Schedule
          </button>
          <button type="button" disabled={sending} onClick={() => send('draft')}>
            Save draft
          </button>
        </div>
        {sending && <p role="status">Sending…</p>}
        <ErrorText error={error} />
      </form>
      {result && <Outcome post={result} />}
    </section>
  );
}

function Counts({ check, label }: { check: Validation['targets'][number] | undefined; label: string }) {
  if (!check) return <p class="muted">{label}: checking…</p>;
  const c = check.characters;
  return (
    <div class={`count ${check.valid ? 'ok' : 'bad'}`} data-target={`${check.platform}:${check.accountId}`}>
      <strong>{label}</strong>: {c ? <span class={c.used > c.limit ? 'over' : ''}>{`${c.used} / ${c.limit} characters`}</span> : null}
      {check.errors.length > 0 && (
        <ul>
          {check.errors.map((e, i) => (
            <li key={i} class="error">
              {e.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Outcome({ post }: { post: any }) {
  return (
    <section aria-labelledby="outcome-title" class="outcome" aria-live="polite">
      <h2 id="outcome-title">
        Sent: <StatusBadge status={post.status} />
      </h2>
      <ul>
        {post.platforms.map((t: any) => (
          <li key={`${t.platform}:${t.accountId}`} data-target={`${t.platform}:${t.accountId}`}>
            {t.platform} {t.accountId}: <StatusBadge status={t.status} />
            {t.platformPostUrl && (
              <>
                {' '}
                <a href={t.platformPostUrl} target="_blank" rel="noopener noreferrer">
                  {`View on ${t.platform}`}
                </a>
              </>
            )}
            {t.error && <span class="error"> {t.error}</span>}
          </li>
        ))}
      </ul>
      <p>
        <a href={`/app/posts/${post.id}`}>Open the post</a>
      </p>
    </section>
  );
}

