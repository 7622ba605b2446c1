// The platform emulators in a process of their own, as an operator runs `herald sandbox`, so that their
// work is not counted against the benchmark process or Herald. Settings: BENCH_EMULATOR_PROCESSING_MS
// (how long emulated video processing takes), BENCH_EMULATOR_LATENCY_MS (every answer's delay). Control
// through each emulator's /__sandbox API.
import { createEmulators } from '../src/sandbox/index.ts';
import { startEmulatorServer } from '../src/sandbox/server.ts';

const mediaOrigins = (process.env.BENCH_EMULATOR_MEDIA_ORIGINS ?? '').split(',').filter(Boolean);
const emulators = createEmulators({ processingMs: Number(process.env.BENCH_EMULATOR_PROCESSING_MS ?? 0), mediaOrigins: () => mediaOrigins });
for (const e of emulators) e.latencyMs = Number(process.env.BENCH_EMULATOR_LATENCY_MS ?? 0);
const server = await startEmulatorServer(emulators);
console.log(`emulators listening on ${server.url} mounts ${emulators.map((e) => e.name).join(',')}`);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
