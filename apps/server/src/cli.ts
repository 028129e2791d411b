#!/usr/bin/env node
import { runCli } from './cli-main.js';

runCli(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exit(code);
  },
  (err: unknown) => {
    process.stderr.write(`vigie: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
