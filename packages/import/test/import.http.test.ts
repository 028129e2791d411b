// Submission, status records and the processing queue, through the HTTP API.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoreFactory } from '@vigie/kernel';
import { ManualClock } from '@vigie/kernel-testing';
import { sqliteStoreFactory } from '@vigie/store-sqlite';
import { eventually } from '@vigie/testkit';
import { startImportTest, type ImportTestKernel } from './helpers.js';
import { importStatusChangedEvent } from '../src/index.js';

let t: ImportTestKernel | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

const start = async (options: Parameters<typeof startImportTest>[0] = {}) => {
  t = await startImportTest(options);
  return t;
};

const document = { cis: [{ _id: 'db/host', type: 'resource', action: 'create' }], links: [] };
const importsDir = (kernel: ImportTestKernel) => join(kernel.installDir, 'var', 'lib', 'imports');
const records = (kernel: ImportTestKernel) => kernel.kernel.store.collection('default_importgraph').find({});

describe('PUT and POST /api/contextgraph/import', () => {
  it('answers the import id as the spec shows it, then processes the import', async () => {
    const k = await start();
    const res = await k.put('/api/contextgraph/import', { json: document });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ total: 1, data: [{ import_id: expect.stringMatching(/^[0-9a-f-]{36}$/) }], success: true });
    const id = (res.body as { data: { import_id: string }[] }).data[0]?.import_id as string;
    expect((await k.finished(id)).status).toBe('done');
    expect(k.announced.get(id)).toEqual(['ongoing', 'done']);
  });

  it('accepts POST, and a form with the document as JSON text in the field json', async () => {
    const k = await start();
    const posted = await k.post('/api/contextgraph/import', { json: document });
    expect(posted.status).toBe(200);
    const form = await k.request('POST', '/api/contextgraph/import', {
      body: `json=${encodeURIComponent(JSON.stringify({ cis: [{ _id: 'host', type: 'component', action: 'create' }] }))}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(200);
    for (const res of [posted, form]) expect((await k.finished((res.body as { data: { import_id: string }[] }).data[0]?.import_id as string)).status).toBe('done');
    expect((await k.entities()).map((e) => e._id)).toEqual(['db/host', 'host']);
  });

  it('accepts the document as JSON text inside a JSON body', async () => {
    const k = await start();
    const id = await k.submitRaw(JSON.stringify({ json: JSON.stringify(document) }), 'application/json');
    expect((await k.finished(id)).stats).toEqual({ deleted: 0, updated: 1 });
  });

  it('answers 400 to an empty body and 415 to a body neither JSON nor a form or compressed, storing nothing', async () => {
    const k = await start();
    const empty = await k.request('PUT', '/api/contextgraph/import', { headers: { 'content-type': 'application/json' } });
    expect(empty.status).toBe(400);
    const expected = 'application/json {"json": {"cis": [...], "links": [...]}} or application/x-www-form-urlencoded with a field json';
    expect(empty.body).toEqual({ name: '', description: `The request body is empty: send ${expected}` });
    const text = await k.request('PUT', '/api/contextgraph/import', { body: 'cis', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(text.body).toEqual({ name: '', description: `Unsupported content type text/plain: send ${expected}, uncompressed` });
    const gzipped = await k.request('PUT', '/api/contextgraph/import', { body: gzipSync(JSON.stringify({ json: document })), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
    expect(gzipped.status).toBe(415);
    expect(gzipped.body).toEqual({ name: '', description: `Unsupported content encoding gzip: send ${expected}, uncompressed` });
    expect(await records(k)).toEqual([]);
    expect(existsSync(importsDir(k)) ? readdirSync(importsDir(k)) : []).toEqual([]);
  });

  it('answers 413 to a body over [import] max_body_size, announced or found while streaming, keeping nothing', async () => {
    const k = await start({ config: { 'webserver.conf': { import: { max_body_size: '1kb' } } } });
    const big = JSON.stringify({ json: { cis: Array.from({ length: 40 }, (_, i) => ({ _id: `entity-${i}`, type: 'resource', action: 'create' })) } });
    expect(big.length).toBeGreaterThan(1024);
    const announced = await k.request('PUT', '/api/contextgraph/import', { body: big, headers: { 'content-type': 'application/json' } });
    expect(announced.status).toBe(413);
    expect(announced.body).toEqual({ name: '', description: 'The import body exceeds 1kb ([import] max_body_size)' });

    // Chunked: no Content-Length, the limit is found while the body streams to disk.
    const streamed = await new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
      const req = request(`${k.url}/api/contextgraph/import`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from('root:root-password').toString('base64')}` },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
      });
      // The server may close the connection before the client is done sending: that is the point.
      req.on('error', (err) => (req.writableEnded ? undefined : reject(err)));
      for (let i = 0; i < big.length; i += 200) req.write(big.slice(i, i + 200));
      req.end();
    });
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body)).toEqual({ name: '', description: 'The import body exceeds 1kb ([import] max_body_size)' });
    expect(streamed.connection).toBe('close');
    expect(await records(k)).toEqual([]);
    expect(readdirSync(importsDir(k))).toEqual([]);

    const small = await k.put('/api/contextgraph/import', { json: document });
    expect(small.status).toBe(200);
  });

  it('answers 400 to JSON nested deeper than [server] json_max_depth, JSON or form, measured while streaming, keeping nothing', async () => {
    const k = await start({ config: { 'webserver.conf': { server: { json_max_depth: 16 } } } });
    const deep = `{"json":{"cis":[{"_id":"x","type":"resource","action":"create","infos":${'['.repeat(100_000)}${']'.repeat(100_000)}}]}}`;
    const json = await k.request('PUT', '/api/contextgraph/import', { body: deep, headers: { 'content-type': 'application/json' } });
    expect(json.status).toBe(400);
    expect(json.body).toEqual({ name: '', description: 'Invalid JSON: JSON nested deeper than 16 levels' });
    const form = await k.request('POST', '/api/contextgraph/import', {
      body: `json=${encodeURIComponent(`{"cis":[${'{"a":'.repeat(20)}1${'}'.repeat(20)}]}`)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(400);
    expect(await records(k)).toEqual([]);
    expect(readdirSync(importsDir(k))).toEqual([]);
    // JSON text inside the field is only parsed when the import runs: the same bound fails the import.
    const id = await k.submitRaw(JSON.stringify({ json: `{"cis":${'['.repeat(40)}${']'.repeat(40)}}` }), 'application/json');
    const record = await k.finished(id);
    expect(record.status).toBe('failed');
    expect(record.info).toBe('the field "json" is not valid JSON: JSON nested deeper than 16 levels');
  });

  it('answers 500 with the reason when the body cannot be stored', async () => {
    const k = await start();
    // A file where the directory should be.
    writeFileSync(importsDir(k), 'not a directory');
    const res = await k.put('/api/contextgraph/import', { json: document });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ name: '', description: expect.stringMatching(/^Impossible to store the import: E[A-Z]+: .+imports/) });
    expect(await records(k)).toEqual([]);
  });

  it('needs credentials', async () => {
    const k = await start();
    expect((await k.put('/api/contextgraph/import', { json: document }, { auth: false })).status).toBe(401);
    expect((await k.get('/api/contextgraph/import/status/x', { auth: false })).status).toBe(401);
  });
});

describe('configuration', () => {
  it('refuses to start with a max_body_size that is not a size', async () => {
    await expect(startImportTest({ config: { 'webserver.conf': { import: { max_body_size: 'lots' } } } })).rejects.toThrow(
      'config [import] (webserver.conf) of feature import: max_body_size must be a size such as 512mb',
    );
  });
});

describe('GET /api/contextgraph/import/status/<import_id>', () => {
  it('answers the record: creation as time.asctime(), exec_time and stats once done', async () => {
    const k = await start({ clock: new ManualClock(new Date(2017, 7, 28, 17, 41, 27)) });
    const id = await k.submit(document);
    expect(await k.finished(id)).toEqual({ _id: id, creation: 'Mon Aug 28 17:41:27 2017', status: 'done', exec_time: '00:00:00', stats: { deleted: 0, updated: 1 } });
  });

  it('answers 200 not_found to an unknown id, slashes included', async () => {
    const k = await start();
    for (const id of ['0b9b2a3e-0000-4000-8000-000000000000', 'some/thing']) {
      const res = await k.get(`/api/contextgraph/import/status/${id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ _id: id, status: 'not_found' });
    }
  });
});

describe('the processing queue', () => {
  it('runs one import at a time in submission order: while one is ongoing the next waits pending', async () => {
    const k = await start({ clock: new ManualClock(new Date(2019, 8, 5, 5, 6, 40)) });
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding = () => {};
    const ongoing = new Promise<void>((resolve) => (holding = resolve));
    // A listener of the first import going ongoing keeps it there until the test releases it.
    let first = true;
    k.kernel.eventBus.on(importStatusChangedEvent, async ({ status }) => {
      if (status !== 'ongoing' || !first) return;
      first = false;
      holding();
      await held;
    });
    const a = await k.submit({ cis: [{ _id: 'a', type: 'resource', action: 'create' }] });
    await ongoing;
    const b = await k.submit({ cis: [{ _id: 'a', action: 'update', name: 'after a' }] });
    expect((await k.get(`/api/contextgraph/import/status/${a}`)).body).toEqual({ _id: a, creation: 'Thu Sep  5 05:06:40 2019', status: 'ongoing' });
    expect((await k.get(`/api/contextgraph/import/status/${b}`)).body).toEqual({ _id: b, creation: 'Thu Sep  5 05:06:40 2019', status: 'pending' });
    // The body waits in a file under the data directory.
    expect(readFileSync(join(importsDir(k), `import_${a}.json`), 'utf8')).toBe(JSON.stringify({ json: { cis: [{ _id: 'a', type: 'resource', action: 'create' }] } }));
    release();
    expect((await k.finished(b)).status).toBe('done');
    expect((await k.finished(a)).status).toBe('done');
    expect([...k.announced.entries()]).toEqual([
      [a, ['ongoing', 'done']],
      [b, ['ongoing', 'done']],
    ]);
    expect((await k.get('/api/v2/entities/a')).body).toMatchObject({ name: 'after a' });
    expect(readdirSync(importsDir(k))).toEqual([]);
  });

  it('fails an import whose file disappeared before it was processed, changing nothing', async () => {
    const k = await start();
    k.kernel.eventBus.on(importStatusChangedEvent, ({ importId, status }) => {
      if (status === 'ongoing') rmSync(join(importsDir(k), `import_${importId}.json`));
    });
    const id = await k.submit(document);
    expect(await k.finished(id)).toMatchObject({
      status: 'failed',
      info: expect.stringMatching(/^the import could not be processed: ENOENT: no such file or directory, open '.+'; nothing was applied$/),
    });
    expect(await k.entities()).toEqual([]);
  });

  it('fails, changing nothing, when another writer creates an entity of the import while it runs', async () => {
    // The embedded store, with another writer slipping in just before the import's batch.
    const racing: StoreFactory = async (context) => {
      const adapter = await sqliteStoreFactory()(context);
      const { store } = adapter;
      const batch = store.batch.bind(store);
      store.batch = async (operations) => {
        if (operations.some((op) => op.op === 'insert' && op.doc._id === 'contested')) {
          await store.collection('default_entities').insertOne({ _id: 'contested', name: 'from events', type: 'resource' });
        }
        return batch(operations);
      };
      return adapter;
    };
    const k = await start({ store: racing });
    const id = await k.submit({ cis: [{ _id: 'other', type: 'resource', action: 'create' }, { _id: 'contested', type: 'resource', action: 'create' }] });
    expect((await k.finished(id)).info).toBe(
      'an entity this import creates was created by another writer meanwhile (E11000 duplicate key error collection: default_entities index: _id_ dup key: { _id: "contested" }); nothing was applied, submit the import again',
    );
    expect(await k.entities()).toEqual([expect.objectContaining({ _id: 'contested', name: 'from events' })]);
  });

  it('shows an import done only once its changes are durable, not when the store shows them', async () => {
    // The embedded store with a slow disk: a batch is in memory at once, its answer waits for the test.
    let makeDurable = () => {};
    const durable = new Promise<void>((resolve) => (makeDurable = resolve));
    let inMemory = () => {};
    const applied = new Promise<void>((resolve) => (inMemory = resolve));
    const slowDisk: StoreFactory = async (context) => {
      const adapter = await sqliteStoreFactory()(context);
      const { store } = adapter;
      const batch = store.batch.bind(store);
      store.batch = async (operations) => {
        const result = await batch(operations);
        if (operations.some((op) => op.collection === 'default_entities')) {
          inMemory();
          await durable;
        }
        return result;
      };
      return adapter;
    };
    const k = await start({ store: slowDisk });
    const id = await k.submit(document);
    await applied;
    expect((await k.get('/api/v2/entities/db/host')).status).toBe(200);
    expect((await k.get(`/api/contextgraph/import/status/${id}`)).body).toEqual({ _id: id, creation: expect.any(String), status: 'ongoing' });
    makeDurable();
    expect(await k.finished(id)).toEqual({ _id: id, creation: expect.any(String), status: 'done', exec_time: expect.any(String), stats: { deleted: 0, updated: 1 } });
  });

  it('processes, at start, imports recorded without a job (a crash between the record and the job)', async () => {
    const first = await start();
    const installDir = first.installDir;
    const id = await first.submit(document);
    await first.finished(id);
    // Another pending import, as a crash would leave it: a record and its file, no job.
    const records = first.kernel.store.collection('default_importgraph');
    const orphan = { ...(await records.findOne({ _id: id })), _id: 'left-behind', seq: 2, status: 'pending', exec_time: undefined, stats: undefined };
    await records.insertOne(orphan);
    const body = JSON.stringify({ json: { cis: [{ _id: 'host', type: 'component', action: 'create' }] } });
    writeFileSync(join(importsDir(first), 'import_left-behind.json'), body);
    // Files no unfinished import needs go once an hour old: younger ones may be uploads in flight on another node.
    const hoursAgo = new Date(Date.now() - 2 * 3600 * 1000);
    writeFileSync(join(importsDir(first), 'import_stale.json.part'), 'an upload cut off by a crash');
    utimesSync(join(importsDir(first), 'import_stale.json.part'), hoursAgo, hoursAgo);
    writeFileSync(join(importsDir(first), 'import_recent.json.part'), 'an upload in flight elsewhere');
    await first.kernel.scheduler.cancel('import.process');
    await first.kernel.stop();

    t = await startImportTest({ installDir });
    expect((await t.finished('left-behind')).status).toBe('done');
    expect((await t.entities()).map((e) => e._id)).toEqual(['db/host', 'host']);
    expect(readdirSync(importsDir(t))).toEqual(['import_recent.json.part']);
  });

  it('leaves an import claimed by a live worker elsewhere alone until its claim expires, then processes it before later ones', async () => {
    const clock = new ManualClock();
    const k = await start({ clock });
    const records = k.kernel.store.collection('default_importgraph');
    mkdirSync(importsDir(k), { recursive: true });
    writeFileSync(join(importsDir(k), 'import_elsewhere.json'), JSON.stringify({ json: { cis: [{ _id: 'first', type: 'resource', action: 'create' }] } }));
    await records.insertOne({
      _id: 'elsewhere',
      seq: 1,
      creation: 'Mon Jan  1 00:00:00 2024',
      status: 'ongoing',
      format: 'json',
      worker: { host: 'another-host', pid: 1, instance: 'another-instance' },
      lease_until: clock.nowMs() + 30_000,
    });
    const later = await k.submit({ cis: [{ _id: 'first', action: 'update', name: 'second' }] });
    // The job ran, found the oldest import held, and asked to be woken when the claim expires: nothing moved.
    // (Finished one-off jobs are removed, so what is left once the run is over is the wake-up alone.)
    const wakeUpsOnly = async () => {
      const jobs = await k.kernel.scheduler.list('import.process');
      return jobs.length > 0 && jobs.every((job) => job.lastRunAt === null && (job.nextRunAt?.getTime() ?? 0) > Date.now());
    };
    await eventually(wakeUpsOnly, Boolean, 'the job run');
    expect(await k.kernel.scheduler.list('import.process')).toHaveLength(1);
    expect((await k.get(`/api/contextgraph/import/status/${later}`)).body).toMatchObject({ status: 'pending' });
    expect(k.announced.size).toBe(0);

    clock.advance(30_001);
    const again = await k.submit({ cis: [{ _id: 'first', action: 'update', measurements: ['m'] }] });
    expect((await k.finished(again)).status).toBe('done');
    expect([...k.announced.keys()]).toEqual(['elsewhere', later, again]);
    expect((await k.get('/api/v2/entities/first')).body).toMatchObject({ name: 'second', measurements: ['m'] });
  });
});
