// Calendar arithmetic in the viewer's time zone (the browser's own, which Date's local methods follow).
// Weeks start on Monday. Pure functions: the page and the tests share them.

export type View = 'month' | 'week';

const pad = (n: number) => String(n).padStart(2, '0');

/** YYYY-MM-DD of a local date. */
export const dayKey = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

export const startOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate());
export const addDays = (d: Date, n: number) => new Date(d.getFullYear(), d.getMonth(), d.getDate() + n);
/** Monday of the week holding `d`. */
export const startOfWeek = (d: Date) => addDays(startOfDay(d), -((d.getDay() + 6) % 7));

/** The days shown: whole weeks covering the month, or the one week; `end` is the midnight after the last. */
export function range(view: View, focus: Date): { days: Date[]; start: Date; end: Date } {
  let start: Date;
  let count: number;
  if (view === 'week') {
    start = startOfWeek(focus);
    count = 7;
  } else {
    const first = new Date(focus.getFullYear(), focus.getMonth(), 1);
    const last = new Date(focus.getFullYear(), focus.getMonth() + 1, 0);
    start = startOfWeek(first);
    const end = addDays(startOfWeek(last), 7);
    count = Math.round((end.getTime() - start.getTime()) / 86_400_000);
  }
  const days = Array.from({ length: count }, (_, i) => addDays(start, i));
  return { days, start, end: addDays(start, count) };
}

export function step(view: View, focus: Date, by: number): Date {
  return view === 'week' ? addDays(focus, 7 * by) : new Date(focus.getFullYear(), focus.getMonth() + by, 1);
}

/** Items grouped by local day, each day's in time order. */
export function byDay<T extends { at: string }>(items: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const key = dayKey(new Date(item.at));
    let list = out.get(key);
    if (!list) out.set(key, (list = []));
    list.push(item);
  }
  return out;
}
