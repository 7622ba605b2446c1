// What an emulator has really published: tests read it to prove a post went out exactly once.

export interface LedgerEntry {
  /** The platform's id of the post. */
  id: string;
  accountId: string;
  /** post, reply (thread item), edit, story, reel, ... */
  kind: string;
  text: string;
  /**
   * What the post carries. Media the platform pulled or received also says what arrived (bytes, digest, type,
   * pixel size) and its alt text, when the platform was given one.
   */
  media: { type: string; url: string; altText?: string; bytes?: number; sha256?: string; contentType?: string; width?: number; height?: number }[];
  createdAt: number;
  /** Anything else worth asserting on (privacy level, reply-to id, previous id of an edit). */
  extra?: Record<string, unknown>;
}

export class Ledger {
  #entries: LedgerEntry[] = [];
  #listeners = new Set<() => void>();

  record(entry: LedgerEntry): LedgerEntry {
    this.#entries.push(entry);
    for (const listener of this.#listeners) listener();
    return entry;
  }

  /** Calls `listener` after every entry recorded (also outside a request, e.g. when processing ends); returns the unsubscribe. */
  watch(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The newest `max` entries, oldest first, for saving. */
  snapshot(max = Number.POSITIVE_INFINITY): LedgerEntry[] {
    return max >= this.#entries.length ? [...this.#entries] : this.#entries.slice(this.#entries.length - max);
  }

  /** Replaces the entries with saved ones. */
  restore(entries: readonly LedgerEntry[]): void {
    this.#entries = [...entries];
  }

  list(filter: { accountId?: string; kind?: string } = {}): LedgerEntry[] {
    return this.#entries.filter(
      (e) => (!filter.accountId || e.accountId === filter.accountId) && (!filter.kind || e.kind === filter.kind),
    );
  }

  get(id: string): LedgerEntry | undefined {
    return this.#entries.find((e) => e.id === id);
  }

  clear(): void {
    this.#entries = [];
  }
}
