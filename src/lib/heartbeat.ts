// One heartbeat per process for every lease it holds of one kind (publish attempts, first comments,
// idempotency claims): a single statement renews them all, however many are in flight, so leases can be
// short (a dead process's work is taken over quickly) without a write per lease every few seconds.
// A lease the renewal no longer finds has been taken over: its holder is told through its AbortSignal.
export interface Heartbeat {
  /** Renews `id` from now on, until remove(); returns the signal that fires when the lease is lost. */
  add(id: string, ref: string): AbortSignal;
  remove(id: string): void;
  /** Renews everything held now (tests, shutdown); the timer calls it every `everyMs`. */
  beat(): Promise<void>;
  readonly size: number;
}

export interface HeartbeatOptions {
  everyMs: number;
  /**
   * Renews the leases named by (id, ref) pairs and returns the ids still held. `ref` is what finds the
   * row cheaply (a target id, for example), `id` is the fence (the attempt id).
   */
  renew(held: { id: string; ref: string }[]): Promise<Set<string>>;
  onError(err: unknown): void;
  /** The abort reason of a lost lease (publishing uses StaleAttemptError). */
  lost(): Error;
}

export function createHeartbeat(options: HeartbeatOptions): Heartbeat {
  const held = new Map<string, { ref: string; abort: AbortController }>();
  let timer: NodeJS.Timeout | null = null;
  let beating: Promise<void> | null = null;

  async function renewAll(): Promise<void> {
    if (held.size === 0) return;
    const entries = [...held];
    let kept: Set<string>;
    try {
      kept = await options.renew(entries.map(([id, h]) => ({ id, ref: h.ref })));
    } catch (err) {
      // The database may be briefly unreachable: the next beat tries again, well within the lease.
      options.onError(err);
      return;
    }
    for (const [id, h] of entries) {
      if (kept.has(id) || held.get(id) !== h) continue;
      held.delete(id);
      h.abort.abort(options.lost());
    }
  }

  const beat = () => {
    beating ??= renewAll().finally(() => {
      beating = null;
    });
    return beating;
  };

  function stopIfIdle() {
    if (held.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  }

  return {
    add(id, ref) {
      const abort = new AbortController();
      held.set(id, { ref, abort });
      if (!timer) {
        timer = setInterval(() => void beat(), Math.max(20, options.everyMs));
        timer.unref();
      }
      return abort.signal;
    },
    remove(id) {
      held.delete(id);
      stopIfIdle();
    },
    beat,
    get size() {
      return held.size;
    },
  };
}
