import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { onLines, spawnSource } from '@vigie/kernel-testing';
import { SqliteStore } from '../src/index.js';

const writer = fileURLToPath(new URL('./fixtures/batch-writer.ts', import.meta.url));
const batchSize = 200;

/** Starts the writer, waits for `killAfter` acknowledgements, kills it with SIGKILL; returns the last ack seen. */
function runAndKill(path: string, killAfter: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawnSource(writer, [path, String(batchSize)]);
    let lastAck = 0;
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    onLines(child.stdout, (line) => {
      const m = /^ACK (\d+)$/.exec(line);
      if (m) lastAck = Number(m[1]);
      if (lastAck >= killAfter && !child.killed) child.kill('SIGKILL');
    });
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(lastAck);
      else reject(new Error(`writer exited with ${code ?? signal} before being killed: ${stderr}`));
    });
  });
}

describe('crash safety of the sqlite store', () => {
  it('keeps every acknowledged batch and never a partial one after SIGKILL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigie-crash-'));
    const path = join(dir, 'store.sqlite');
    try {
      // Several kills at different points of the stream, reopening the same file each time.
      for (const killAfter of [3, 17, 41]) {
        const before = new SqliteStore(path);
        const start = ((await before.collection('progress').findOne({ _id: 'last' }))?.batch as number | undefined) ?? 0;
        await before.close();

        const lastAck = await runAndKill(path, start + killAfter);
        const store = new SqliteStore(path);
        const last = ((await store.collection('progress').findOne({ _id: 'last' }))?.batch as number | undefined) ?? 0;
        expect(last).toBeGreaterThanOrEqual(lastAck);
        const items = store.collection('items');
        const counts = new Map<number, number>();
        for (const doc of await items.find({}, { projection: { batch: 1 } })) counts.set(doc.batch as number, (counts.get(doc.batch as number) ?? 0) + 1);
        for (let batch = 1; batch <= last; batch++) expect(counts.get(batch), `batch ${batch}`).toBe(batchSize);
        expect([...counts.keys()].filter((b) => b > last)).toEqual([]);
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
