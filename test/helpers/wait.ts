// Waiting in tests: on a condition, never on the clock. The suite must pass on a machine that is fully
// loaded, so no test may assume that something happens within some time, or that a sleep was long enough
// for it. A wait polls a condition; its cap only turns a hang into a failure with a message, and is
// generous on purpose: it is never a statement about speed.

/** How long a wait may last before it is called a hang. */
export const HANG_CAP_MS = 60_000;

/**
 * Polls `check` until it returns something other than `undefined` or `false`, and returns that. Fails,
 * naming `what`, once `capMs` has passed (a hang).
 */
export async function until<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  options: { capMs?: number; everyMs?: number } = {},
): Promise<T> {
  const capMs = options.capMs ?? HANG_CAP_MS;
  const deadline = Date.now() + capMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`waited ${capMs} ms for ${what}; it never happened`);
    await new Promise((r) => setTimeout(r, options.everyMs ?? 20));
  }
}

/** Resolves once the wall clock has passed `epochMs` (for "this time has come and gone" checks). */
export async function untilPast(epochMs: number): Promise<void> {
  await until(`the clock to pass ${new Date(epochMs).toISOString()}`, () => Date.now() > epochMs, { everyMs: 10 });
}

/** A promise the test settles by hand: `open()` lets whoever awaits `opened` through. */
export function gate(): { opened: Promise<void>; open(): void; isOpen(): boolean } {
  let open!: () => void;
  let isOpen = false;
  const opened = new Promise<void>((resolve) => {
    open = () => {
      isOpen = true;
      resolve();
    };
  });
  return { opened, open: () => open(), isOpen: () => isOpen };
}
