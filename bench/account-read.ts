// The cost of reading the account on every authenticated request (#23): each request reads the user and their roles
// from the store (`AccessResolver.grant`) so that a disabled user is refused at once on every node. Prints the CPU
// time of that read beside the CPU time of a whole authenticated `GET /api/v2/account/me` (Basic credentials, whose
// hash check is cached), measured in alternating rounds of one process on the embedded (SQLite) store.
//
//   TSX_TSCONFIG_PATH=tsconfig.base.json node --conditions=vigie-source --import tsx bench/account-read.ts
//
// The HTTP client (node:http, keep-alive) runs in the same process, so the request's figure includes the client's
// work: the share printed understates the read's share of the server's own work per request.
import { Agent, createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { loadavg } from 'node:os';
// The testkit first: it loads the kernel, which installs the decorator metadata the auth classes need.
import { startFeatureTest, testAdmin } from '../packages/testkit/src/index.js';
import { AccessResolver } from '../packages/auth/src/access.js';

const requests = Number(process.env.BENCH_REQUESTS ?? 2_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const concurrency = 10;

// Answers are not checked against their schemas here (the tests do): that check would dominate the request's cost.
const t = await startFeatureTest({ features: [], checkResponses: false, config: { 'webserver.conf': { log: { level: 'silent' } } } });
const agent = new Agent({ keepAlive: true, maxSockets: 10 });
const resolver = t.kernel.scope('auth').resolve(AccessResolver);
const authorization = `Basic ${Buffer.from(`${testAdmin.user}:${testAdmin.password}`).toString('base64')}`;
const identity = { id: testAdmin.user, name: testAdmin.user, via: 'basic' };

/** CPU microseconds (user + system) and wall milliseconds of `work`. */
async function measure(work: () => Promise<void>): Promise<{ cpuUs: number; wallMs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await work();
  const used = process.cpuUsage(cpu);
  return { cpuUs: used.user + used.system, wallMs: performance.now() - started };
}

// The baseline: the same client against a bare node:http server answering a fixed JSON, so that the client's share
// (and Node's HTTP parsing) can be taken out of the request's figure.
const bare = createServer((_req, res) => {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify({ id: identity.id, name: identity.name, via: identity.via, roles: ['admin'] }));
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;

async function httpRound(base = t.url): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        next += 1;
        await new Promise<void>((resolve, reject) => {
          get(`${base}/api/v2/account/me`, { agent, headers: { authorization } }, (res) => {
            if (res.statusCode !== 200) reject(new Error(`GET /api/v2/account/me answered ${res.statusCode}`));
            res.resume().once('end', resolve);
          }).once('error', reject);
        });
      }
    }),
  );
}

async function readRound(): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        next += 1;
        const granted = await resolver.grant(identity);
        if (!('user' in granted)) throw new Error(`the account read refused: ${granted.refused}`);
      }
    }),
  );
}

// Warm-up: caches, JIT, the store's statements.
await httpRound();
await readRound();
await httpRound(bareUrl);
const http: number[] = [];
const read: number[] = [];
const baseline: number[] = [];
for (let round = 0; round < rounds; round += 1) {
  const h = await measure(() => httpRound());
  const r = await measure(readRound);
  const b = await measure(() => httpRound(bareUrl));
  http.push(h.cpuUs / requests);
  read.push(r.cpuUs / requests);
  baseline.push(b.cpuUs / requests);
  console.log(
    `round ${round + 1}: authenticated GET ${(h.cpuUs / requests).toFixed(1)} µs CPU/request (${((requests / h.wallMs) * 1000).toFixed(0)} req/s); ` +
      `account read ${(r.cpuUs / requests).toFixed(1)} µs CPU/read (${((requests / r.wallMs) * 1000).toFixed(0)} reads/s); ` +
      `bare node:http ${(b.cpuUs / requests).toFixed(1)} µs CPU/request`,
  );
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const vigieOwn = median(http) - median(baseline);
console.log(
  `\nmedian: the account read is ${median(read).toFixed(1)} µs CPU; an authenticated request ${median(http).toFixed(1)} µs ` +
    `(client included: ${((median(read) / median(http)) * 100).toFixed(1)} %), of which ${vigieOwn.toFixed(1)} µs above a bare node:http ` +
    `server with the same client (${((median(read) / vigieOwn) * 100).toFixed(1)} % of that); load average ${loadavg()[0]?.toFixed(1)}`,
);
agent.destroy();
bare.close();
await t.stop();
