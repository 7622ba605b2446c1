// Numbers as rule messages print them: limits the way platforms state them ("8 MB", "15 min"), the file's
// own value precise enough to compare ("8.4 MB (8,388,608 bytes)").

/** 12345678 → "12,345,678", the same on every machine (no locale). */
export function formatNumber(n: number): string {
  return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

const MIB = 1024 * 1024;

/** A limit in the unit it was most likely stated in; with `exact`, the byte count follows. */
export function formatBytes(n: number, exact = false): string {
  let text: string;
  // A file's own size is always decimal; only a limit keeps the binary unit it was set in.
  if (!exact && n >= MIB && n % MIB === 0) text = `${n / MIB} MiB`;
  else if (n >= 1e9) text = `${+(n / 1e9).toFixed(2)} GB`;
  else if (n >= 1e6) text = `${+(n / 1e6).toFixed(1)} MB`;
  else if (n >= 1e3) text = `${+(n / 1e3).toFixed(1)} KB`;
  else return `${n} bytes`;
  return exact ? `${text} (${formatNumber(n)} bytes)` : text;
}

/** 500 → "0.5 s", 140000 → "2 min 20 s", 900000 → "15 min", 43200000 → "12 h". */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${+(ms / 1000).toFixed(2)} s`;
  const totalSeconds = Math.round(ms / 1000);
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  return [h ? `${h} h` : '', m ? `${m} min` : '', s ? `${s} s` : ''].filter(Boolean).join(' ');
}

/** ["JPEG"] → "JPEG"; ["JPEG", "PNG"] → "JPEG or PNG"; three or more → "JPEG, PNG or GIF". */
export function formatList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}
