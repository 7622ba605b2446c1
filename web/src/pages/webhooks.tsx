// Webhooks: where events go and which ones, the secret (reveal, rotate), a test send, and the delivery log
// with its filters and Redeliver.
import { useState } from 'preact/hooks';
import { ApiError, api } from '../api.ts';
import { ErrorText, Notice, PageTitle, StatusBadge, formatDateTime, useLoad } from '../ui.tsx';

export function WebhooksPage({ events }: { events: string[] }) {
  const settings = useLoad(async () => {
    try {
      return await api('GET', '/v1/webhooks/settings');
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return null;
      throw err;
    }
  });
  const [url, setUrl] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string[] | null>(null);
  const [reveal, setReveal] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [message, setMessage] = useState('');
  const [testEvent, setTestEvent] = useState('webhook.test');
  const [filters, setFilters] = useState({ status: '', event: '' });
  const log = useLoad(() => {
    const q = new URLSearchParams({ limit: '50' });
    if (filters.status) q.set('status', filters.status);
    if (filters.event) q.set('event', filters.event);
    return api<{ deliveries: any[] }>('GET', `/v1/webhooks/deliveries?${q}`);
  }, [filters.status, filters.event]);

  const s = settings.data;
  const currentUrl = url ?? s?.url ?? '';
  const currentEvents = chosen ?? s?.events ?? [];
  const run = async (what: () => Promise<unknown>, done: string) => {
    setError(null);
    setMessage('');
    try {
      await what();
      setMessage(done);
    } catch (err) {
      setError(err);
    }
  };

  return (
    <section aria-labelledby="page-title">
      <PageTitle>Webhooks</PageTitle>
      <ErrorText error={settings.error} />
      <form
        class="webhook-settings"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            settings.setData(await api('POST', '/v1/webhooks/settings', { url: currentUrl, events: currentEvents }));
            setUrl(null);
            setChosen(null);
          }, 'Settings saved.');
        }}
      >
        <label class="field">
          Webhook URL
          <input type="url" required value={currentUrl} onInput={(e) => setUrl(e.currentTarget.value)} placeholder="https://example.com/herald" />
        </label>
        <fieldset>
          <legend>Events</legend>
          <ul class="checks columns">
            {events.map((ev) => (
              <li key={ev}>
                <label>
                  <input
                    type="checkbox"
                    checked={currentEvents.includes(ev)}
                    onChange={(e) => {
                      const on = e.currentTarget.checked;
                      setChosen(on ? [...currentEvents, ev] : currentEvents.filter((x: string) => x !== ev));
                    }}
                  />
                  {ev}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        <div class="actions">
          <button type="submit">Save settings</button>
          {s && (
            <button
              type="button"
              class="danger"
              onClick={() => confirm('Stop sending webhooks and delete these settings?') && run(async () => {
                await api('DELETE', '/v1/webhooks/settings');
                settings.setData(null);
              }, 'Settings deleted.')}
            >
              Delete settings
            </button>
          )}
        </div>
      </form>

      {s && (
        <section aria-labelledby="secret-title">
          <h2 id="secret-title">Signing secret</h2>
          <p>
            <code data-testid="secret">{reveal ? s.secret : `${s.secret.slice(0, 6)}${'•'.repeat(12)}`}</code>{' '}
            <button type="button" aria-pressed={reveal} onClick={() => setReveal(!reveal)}>
              {reveal ? 'Hide secret' : 'Reveal secret'}
            </button>{' '}
            <button
              type="button"
              onClick={() => confirm('Make a new secret? Receivers must use the new one from now on.') && run(async () => settings.setData(await api('POST', '/v1/webhooks/secret/rotate')), 'Secret rotated.')}
            >
              Rotate secret
            </button>
          </p>
          {s.disabledAt && <p class="error">Deliveries stopped {formatDateTime(s.disabledAt)}: {s.disabledReason}</p>}
          <form
            class="inline"
            onSubmit={(e) => {
              e.preventDefault();
              void run(async () => {
                const r = await api('POST', '/v1/webhooks/test', { event: testEvent });
                setMessage(r.delivered ? `Test delivered: ${r.statusCode} in ${r.durationMs} ms.` : `Test not delivered: ${r.error ?? r.statusCode}.`);
                await log.reload();
              }, '');
            }}
          >
            <label>
              Test event
              <select value={testEvent} onChange={(e) => setTestEvent(e.currentTarget.value)}>
                {events.map((ev) => (
                  <option key={ev}>{ev}</option>
                ))}
              </select>
            </label>
            <button type="submit">Send test</button>
          </form>
        </section>
      )}
      {message && <Notice>{message}</Notice>}
      <ErrorText error={error} />

      <h2>Deliveries</h2>
      <form class="filters inline" role="search" aria-label="Filter deliveries" onSubmit={(e) => e.preventDefault()}>
        <label>
          Status
          <select value={filters.status} onChange={(e) => setFilters({ ...filters, status: e.currentTarget.value })}>
            <option value="">any</option>
            <option>pending</option>
            <option>delivered</option>
            <option>failed</option>
          </select>
        </label>
        <label>
          Event
          <select value={filters.event} onChange={(e) => setFilters({ ...filters, event: e.currentTarget.value })}>
            <option value="">any</option>
            {events.map((ev) => (
              <option key={ev}>{ev}</option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => log.reload()}>
          Refresh
        </button>
      </form>
      <ErrorText error={log.error} />
      {log.data && log.data.deliveries.length === 0 && <p>No deliveries yet.</p>}
      {log.data && log.data.deliveries.length > 0 && (
        <table class="list">
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last answer</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {log.data.deliveries.map((d) => (
              <tr key={d.id} data-delivery-id={d.id}>
                <td id={`dlv-${d.id}`}>{d.event}</td>
                <td>
                  <StatusBadge status={d.status} />
                </td>
                <td>{d.attempts}</td>
                <td>{d.lastStatusCode ?? d.lastError ?? '—'}</td>
                <td>{formatDateTime(d.createdAt)}</td>
                <td>
                  <button
                    type="button"
                    aria-describedby={`dlv-${d.id}`}
                    onClick={() => run(async () => {
                      await api('POST', `/v1/webhooks/deliveries/${d.id}/redeliver`);
                      await log.reload();
                    }, `Redelivered ${d.event}.`)}
                  >
                    Redeliver
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
