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

  record(entry: LedgerEntry): LedgerEntry {
    this.#entries.push(entry);
    return entry;
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
