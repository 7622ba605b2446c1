// IANA time zone names, as posts (timezone) and the posting queue (its slots' zone) take them.
import { Temporal } from 'temporal-polyfill';

/** Canonical IANA name, or null when the zone is unknown. */
export function canonicalTimeZone(name: string): string | null {
  try {
    const id = Temporal.Now.zonedDateTimeISO(name).timeZoneId;
    // Temporal also takes fixed offsets ("+02:00"); an IANA name is required, so DST is followed.
    return /^[+-]/.test(id) ? null : id;
  } catch {
    return null;
  }
}
