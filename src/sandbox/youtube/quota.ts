// The Cloud project's daily quota (§8.7 of platforms.md): 10,000 units for most calls, and in the current
// model its own buckets of 100 videos.insert and 100 search.list calls (the older model charged them 1,600
// and 100 units). Everything refills at midnight Pacific.
import { QUOTA } from '../../platforms/youtube/info.ts';
import { quotaDay } from '../../platforms/youtube/quota.ts';

export type QuotaModel = 'buckets' | 'units';
export type Bucket = 'units' | 'uploads' | 'search';

export interface QuotaLimits {
  model: QuotaModel;
  dailyUnits: number;
  dailyUploads: number;
  dailySearches: number;
}

export interface QuotaUsage {
  day: string;
  units: number;
  uploads: number;
  searches: number;
}

export class QuotaMeter {
  readonly #now: () => number;
  /** Read on every call, so the emulator's live settings apply at once. */
  readonly #limits: () => QuotaLimits;
  usage: QuotaUsage;

  constructor(now: () => number, limits: () => QuotaLimits) {
    this.#now = now;
    this.#limits = limits;
    this.usage = { day: quotaDay(now()), units: 0, uploads: 0, searches: 0 };
  }

  #roll(): QuotaUsage {
    const day = quotaDay(this.#now());
    if (day !== this.usage.day) this.usage = { day, units: 0, uploads: 0, searches: 0 };
    return this.usage;
  }

  /** What one call costs, and from which counter, under the configured model. */
  #price(bucket: Bucket, cost: number): { counter: 'units' | 'uploads' | 'searches'; cost: number; limit: number } {
    const l = this.#limits();
    if (bucket === 'uploads') return l.model === 'buckets' ? { counter: 'uploads', cost: 1, limit: l.dailyUploads } : { counter: 'units', cost: QUOTA.legacyInsertCost, limit: l.dailyUnits };
    if (bucket === 'search') return l.model === 'buckets' ? { counter: 'searches', cost: 1, limit: l.dailySearches } : { counter: 'units', cost: QUOTA.cost.searchLegacy, limit: l.dailyUnits };
    return { counter: 'units', cost, limit: l.dailyUnits };
  }

  /** True when a call of this kind would go over the day's quota (it is then refused, and costs nothing). */
  exhausted(bucket: Bucket, cost = 1): boolean {
    const usage = this.#roll();
    const p = this.#price(bucket, cost);
    return usage[p.counter] + p.cost > p.limit;
  }

  charge(bucket: Bucket, cost = 1): void {
    const usage = this.#roll();
    const p = this.#price(bucket, cost);
    usage[p.counter] += p.cost;
  }

  current(): QuotaUsage & QuotaLimits {
    return { ...this.#roll(), ...this.#limits() };
  }

  set(values: Partial<Pick<QuotaUsage, 'units' | 'uploads' | 'searches'>>): void {
    Object.assign(this.#roll(), values);
  }

  reset(): void {
    this.usage = { day: quotaDay(this.#now()), units: 0, uploads: 0, searches: 0 };
  }
}
