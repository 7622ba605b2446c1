// Starts the checkpoint worker for an embedded database (see checkpoint-worker.ts).
import { Worker } from 'node:worker_threads';

export interface Checkpointer {
  /** Stops the worker after a last checkpoint; calling it again returns the same promise. */
  stop(): Promise<void>;
}

export function startCheckpointer(file: string, intervalMs = 100): Checkpointer {
  const worker = new Worker(new URL('./checkpoint-worker.ts', import.meta.url), { workerData: { file, intervalMs } });
  worker.unref();
  let stopping: Promise<void> | null = null;
  return {
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        const done = () => resolve();
        worker.once('message', done);
        worker.once('exit', done);
        worker.once('error', done);
        worker.postMessage('stop');
      }).then(async () => {
        await worker.terminate();
      });
      return stopping;
    },
  };
}
