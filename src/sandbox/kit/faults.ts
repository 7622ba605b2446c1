// Fault injection for the emulators: the ways real platforms misbehave, on demand.

/** Answers in the platform's own error format; each emulator renders them (see Emulator.errorFor). */
export type ErrorFaultKind =
  | 'server_error' // 5xx outage
  | 'rate_limited' // 429 / throttle, lifting after resetSeconds
  | 'expired_token' // the platform's "token expired" answer
  | 'validation' // the platform refuses the content
  | 'permission'; // a permission/scope is missing

/** Behaviours rather than answers. */
export type BehaviourFaultKind =
  | 'slow' // wait delayMs, then answer normally
  | 'accept_then_hang' // do the work (the post exists), then never answer
  | 'accept_then_reset' // do the work (the post exists), then cut the connection instead of answering
  | 'drop'; // cut the connection before doing anything

export type FaultKind = ErrorFaultKind | BehaviourFaultKind;

export const ERROR_FAULT_KINDS: readonly ErrorFaultKind[] = ['server_error', 'rate_limited', 'expired_token', 'validation', 'permission'];
export const FAULT_KINDS: readonly FaultKind[] = [...ERROR_FAULT_KINDS, 'slow', 'accept_then_hang', 'accept_then_reset', 'drop'];

export interface FaultRule {
  kind: FaultKind;
  /** Only requests with this method (case-insensitive). */
  method?: string;
  /** Only requests whose path (no query) contains this text. */
  path?: string;
  /** How many matching requests it hits (default 1). */
  count?: number;
  /** Hit every matching request until cleared. */
  forever?: boolean;
  /** Let this many matching requests through first (fail the second call, not the first). */
  skip?: number;
  /** For slow: how long to wait (default 5000). */
  delayMs?: number;
  /** For rate_limited: seconds until the limit lifts (default 60). */
  resetSeconds?: number;
  /** Overrides the emulator's default error text. */
  message?: string;
}

interface ActiveRule extends FaultRule {
  id: number;
  remaining: number;
  toSkip: number;
}

export class FaultInjector {
  #rules: ActiveRule[] = [];
  #nextId = 1;

  add(rule: FaultRule): number {
    if (!FAULT_KINDS.includes(rule.kind)) throw new Error(`unknown fault kind ${String(rule.kind)}`);
    const id = this.#nextId++;
    this.#rules.push({ ...rule, id, remaining: rule.forever ? Number.POSITIVE_INFINITY : (rule.count ?? 1), toSkip: rule.skip ?? 0 });
    return id;
  }

  clear(): void {
    this.#rules = [];
  }

  list(): FaultRule[] {
    return this.#rules.map(({ remaining: _r, id: _i, toSkip: _s, ...rule }) => rule);
  }

  /** Returns (and uses up one hit of) the first rule matching this request. */
  take(method: string, path: string): FaultRule | undefined {
    const rule = this.#rules.find(
      (r) => r.remaining > 0 && (!r.method || r.method.toUpperCase() === method.toUpperCase()) && (!r.path || path.includes(r.path)),
    );
    if (!rule) return undefined;
    if (rule.toSkip > 0) {
      rule.toSkip -= 1;
      return undefined;
    }
    rule.remaining -= 1;
    if (rule.remaining <= 0) this.#rules = this.#rules.filter((r) => r !== rule);
    return rule;
  }
}
