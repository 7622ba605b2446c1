// Runs in a worker thread with its own connection: copies the WAL back into the database file, on the
// other core, so commits on the main thread never wait for a checkpoint.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const { file, intervalMs } = workerData as { file: string; intervalMs: number };
const db = new SQLite(file);
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try {
    // PASSIVE never blocks the writer; it copies what it can and resumes next time.
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or locked: the next tick tries again; the main connection's fallback limit bounds the WAL.
  }
}, intervalMs);
parentPort!.on('message', (msg) => {
  if (msg === 'stop') {
    clearInterval(timer);
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } finally {
      db.close();
      parentPort!.postMessage('stopped');
    }
  }
});
