#!/usr/bin/env node
// The `herald` command. Run it through npm (`npx herald …`, `npm start`) so the pinned Node 22 runs it.
import '../src/cli/main.ts';
