// Calendar: a month or a week of posts in the viewer's time zone, each at its time inside its day's cell,
// marked by status, opening to its detail. The week view has a row per hour.
import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { byDay, dayKey, range, step, type View } from '../calendar-math.ts';
import { ErrorText, PageTitle, StatusBadge, localTime, pad2, useLoad } from '../ui.tsx';

interface Placed {
  at: string;
  post: { id: string; content: string | null; status: string; platforms: { platform: string }[] };
}

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const monthTitle = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric' });
const dayTitle = new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long' });

function PostLink({ item }: { item: Placed }) {
  const at = new Date(item.at);
  const text = (item.post.content ?? '').slice(0, 60) || '(media only)';
  return (
    <li class={`cal-post status-${item.post.status}`} data-post-id={item.post.id}>
      <a href={`/app/posts/${item.post.id}`}>
        <time dateTime={item.at}>{localTime(at)}</time> <StatusBadge status={item.post.status} /> <span class="cal-text">{text}</span>
      </a>
    </li>
  );
}

export function CalendarPage() {
  const [view, setView] = useState<View>('month');
  const [focus, setFocus] = useState(() => new Date());
  const { days, start, end } = useMemo(() => range(view, focus), [view, focus]);
  const started = useRef(0);
  const { data, error, loading } = useLoad(async () => {
    const answer = await api<{ posts: Placed[]; truncated: boolean }>(
      'GET',
      `/app/api/calendar?from=${encodeURIComponent(start.toISOString())}&to=${encodeURIComponent(end.toISOString())}`,
    );
    started.current = performance.now();
    performance.mark('calendar:render:start');
    return answer;
  }, [start.getTime(), end.getTime()]);
  const grouped = useMemo(() => byDay(data?.posts ?? []), [data]);

  // How long the posts took to reach the screen (npm run bench reads this measure).
  useLayoutEffect(() => {
    if (!data || !started.current) return;
    void document.body.offsetHeight; // style and layout included
    performance.mark('calendar:render:end');
    performance.measure('calendar:render', 'calendar:render:start', 'calendar:render:end');
    document.documentElement.dataset.calendarRendered = String(data.posts.length);
    started.current = 0;
  }, [data]);

  const today = dayKey(new Date());
  const title = view === 'month' ? monthTitle.format(focus) : `${dayTitle.format(days[0]!)} – ${dayTitle.format(days[6]!)}`;

  return (
    <section aria-labelledby="page-title">
      <PageTitle>Calendar</PageTitle>
      <div class="toolbar" role="group" aria-label="Calendar view">
        <button type="button" aria-pressed={view === 'month'} onClick={() => setView('month')}>
          Month
        </button>
        <button type="button" aria-pressed={view === 'week'} onClick={() => setView('week')}>
          Week
        </button>
        <button type="button" onClick={() => setFocus(step(view, focus, -1))}>
          Previous
        </button>
        <button type="button" onClick={() => setFocus(new Date())}>
          Today
        </button>
        <button type="button" onClick={() => setFocus(step(view, focus, 1))}>
          Next
        </button>
        <h2 id="calendar-range" aria-live="polite">
          {title}
        </h2>
      </div>
      <ErrorText error={error} />
      {data?.truncated && <p class="notice">Only the first 5,000 posts of this range are shown.</p>}
      <p class="muted">
        Times in {Intl.DateTimeFormat().resolvedOptions().timeZone}. {loading ? 'Loading…' : `${data?.posts.length ?? 0} posts.`}
      </p>
      {view === 'month' ? (
        <table class="calendar month" aria-labelledby="calendar-range" data-view="month">
          <thead>
            <tr>
              {WEEKDAYS.map((d) => (
                <th scope="col" key={d}>
                  {d}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {Array.from({ length: days.length / 7 }, (_, w) => (
              <tr key={w}>
                {days.slice(w * 7, w * 7 + 7).map((d) => {
                  const key = dayKey(d);
                  const items = grouped.get(key) ?? [];
                  const outside = d.getMonth() !== focus.getMonth();
                  return (
                    <td key={key} data-date={key} class={`${outside ? 'outside' : ''} ${key === today ? 'today' : ''}`}>
                      <div class="day-number" aria-label={dayTitle.format(d)}>
                        {d.getDate()}
                      </div>
                      {items.length > 0 && (
                        <ul class="cal-list">
                          {items.map((item) => (
                            <PostLink key={item.post.id} item={item} />
                          ))}
                        </ul>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <WeekGrid days={days} grouped={grouped} today={today} />
      )}
    </section>
  );
}

function WeekGrid({ days, grouped, today }: { days: Date[]; grouped: Map<string, Placed[]>; today: string }) {
  const byHour = (key: string, hour: number) => (grouped.get(key) ?? []).filter((i) => new Date(i.at).getHours() === hour);
  return (
    <table class="calendar week" aria-labelledby="calendar-range" data-view="week">
      <thead>
        <tr>
          <td />
          {days.map((d) => (
            <th scope="col" key={dayKey(d)} class={dayKey(d) === today ? 'today' : ''}>
              {dayTitle.format(d)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {Array.from({ length: 24 }, (_, hour) => (
          <tr key={hour}>
            <th scope="row">{`${pad2(hour)}:00`}</th>
            {days.map((d) => {
              const key = dayKey(d);
              const items = byHour(key, hour);
              return (
                <td key={key} data-date={key} data-hour={hour}>
                  {items.length > 0 && (
                    <ul class="cal-list">
                      {items.map((item) => (
                        <PostLink key={item.post.id} item={item} />
                      ))}
                    </ul>
                  )}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

