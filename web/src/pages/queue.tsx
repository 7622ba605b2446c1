// Queue: the weekly slots that posts created with `queue: true` take (PUT / GET / DELETE /v1/queue).
import { useMemo, useState } from 'preact/hooks';
import { ApiError, api } from '../api.ts';
import { ErrorText, Notice, PageTitle, formatDateTime, timeZones, useLoad } from '../ui.tsx';

const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
interface Slot {
  day: string;
  time: string;
}

export function QueuePage() {
  const zones = useMemo(timeZones, []);
  const queue = useLoad(async () => {
    try {
      return await api<{ timezone: string; slots: Slot[]; upcoming: string[] }>('GET', '/v1/queue');
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return null;
      throw err;
    }
  });
  const [edit, setEdit] = useState<{ timezone: string; slots: Slot[] } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [message, setMessage] = useState('');
  const current = edit ?? { timezone: queue.data?.timezone ?? zones[0]!, slots: queue.data?.slots ?? [] };
  const setSlot = (i: number, patch: Partial<Slot>) => setEdit({ ...current, slots: current.slots.map((s, j) => (j === i ? { ...s, ...patch } : s)) });

  return (
    <section aria-labelledby="page-title">
      <PageTitle>Queue</PageTitle>
      <ErrorText error={queue.error} />
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setError(null);
          try {
            queue.setData(await api('PUT', '/v1/queue', current));
            setEdit(null);
            setMessage('Queue saved.');
          } catch (err) {
            setError(err);
          }
        }}
      >
        <label class="field">
          Time zone
          <select value={current.timezone} onChange={(e) => setEdit({ ...current, timezone: e.currentTarget.value })}>
            {(zones.includes(current.timezone) ? zones : [current.timezone, ...zones]).map((z) => (
              <option key={z}>{z}</option>
            ))}
          </select>
        </label>
        <fieldset>
          <legend>Weekly slots</legend>
          {current.slots.length === 0 && <p class="muted">No slots yet.</p>}
          <ol class="slots">
            {current.slots.map((s, i) => (
              <li key={i} class="inline">
                <label>
                  {`Day of slot ${i + 1}`}
                  <select value={s.day} onChange={(e) => setSlot(i, { day: e.currentTarget.value })}>
                    {DAYS.map((d) => (
                      <option key={d}>{d}</option>
                    ))}
                  </select>
                </label>
                <label>
                  {`Time of slot ${i + 1}`}
                  <input type="time" required value={s.time} onInput={(e) => setSlot(i, { time: e.currentTarget.value })} />
                </label>
                <button type="button" onClick={() => setEdit({ ...current, slots: current.slots.filter((_, j) => j !== i) })}>
                  {`Remove slot ${i + 1}`}
                </button>
              </li>
            ))}
          </ol>
          <button type="button" onClick={() => setEdit({ ...current, slots: [...current.slots, { day: 'mon', time: '09:00' }] })}>
            Add slot
          </button>
        </fieldset>
        <div class="actions">
          <button type="submit">Save queue</button>
          {queue.data && (
            <button
              type="button"
              class="danger"
              onClick={async () => {
                if (!confirm('Remove every slot?')) return;
                try {
                  await api('DELETE', '/v1/queue');
                  queue.setData(null);
                  setEdit(null);
                  setMessage('Queue cleared.');
                } catch (err) {
                  setError(err);
                }
              }}
            >
              Clear queue
            </button>
          )}
        </div>
      </form>
      {message && <Notice>{message}</Notice>}
      <ErrorText error={error} />
      {queue.data && queue.data.upcoming.length > 0 && (
        <>
          <h2>Next free slots</h2>
          <ol>
            {queue.data.upcoming.map((u) => (
              <li key={u}>
                <time dateTime={u}>{formatDateTime(u)}</time>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
