import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kernel } from '@vigie/kernel';
import { createServerKernel } from '../src/index.js';

/**
 * Sends every class of hostile input to every route of the composed server, as its OpenAPI document lists them
 * (routes added later are covered without editing this file), and checks that each answer is a 4xx (or a status
 * the spec lists), comes quickly, and leaves the server healthy, and that every change the walk made is in the
 * audit log.
 */

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  default?: unknown;
};

interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: { name: string; schema: JsonSchema }[];
  bodySchema?: JsonSchema;
  media: string[];
  /** Public routes (logins, identity-provider callbacks) have no user to record. */
  isPublic: boolean;
}

interface Probe {
  what: string;
  path: string;
  body?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
  /** The input is beyond every bound: the answer must be an error, not a success. */
  refused?: boolean;
  /** The body field a probe is about. */
  field?: string;
}

const password = 'admin password';
const auth = `Basic ${Buffer.from(`root:${password}`).toString('base64')}`;
/**
 * Every hostile request must be answered within this bound: far above a busy machine's slowest answer, far below what
 * a catastrophic regular expression or an unbounded scan would take.
 */
const answerBoundMs = 30_000;
const deep = 100_000;

let installDir: string;
let kernel: Kernel;
let url: string;
let operations: Operation[];

beforeAll(async () => {
  installDir = mkdtempSync(join(tmpdir(), 'vigie-hostile-'));
  mkdirSync(join(installDir, 'etc'));
  writeFileSync(join(installDir, 'etc', 'webserver.conf'), '[log]\nlevel = silent\n');
  kernel = await createServerKernel({ installDir, env: { VIGIE_ADMIN_PASSWORD: password }, port: 0 });
  url = (await kernel.start()).url;
  const doc = (await (await fetch(`${url}/api/v2/openapi.json`, { headers: { authorization: auth } })).json()) as {
    paths: Record<string, Record<string, { parameters?: { name: string; in: string; schema: JsonSchema }[]; requestBody?: { content: Record<string, { schema: JsonSchema }> }; security?: unknown[] }>>;
  };
  operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      pathParams: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
      queryParams: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema })),
      bodySchema: op.requestBody?.content['application/json']?.schema,
      media: Object.keys(op.requestBody?.content ?? {}),
      isPublic: Array.isArray(op.security) && op.security.length === 0,
    })),
  );
});

afterAll(async () => {
  await kernel?.stop();
  rmSync(installDir, { recursive: true, force: true });
});

const typeOf = (schema: JsonSchema | undefined): string => {
  const t = schema?.type;
  return (Array.isArray(t) ? t.find((x) => x !== 'null') : t) ?? 'string';
};

/** A value of the schema's type (the first enum value when there is one): the base the mutations start from. */
function sample(schema: JsonSchema | undefined, depth = 0): unknown {
  if (schema?.enum && schema.enum.length > 0) return schema.enum[0];
  switch (typeOf(schema)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      if (depth < 4) for (const name of schema?.required ?? []) out[name] = sample(schema?.properties?.[name], depth + 1);
      return out;
    }
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    default:
      return 'x';
  }
}

/** A value of another type than the schema's. */
function wrongType(schema: JsonSchema | undefined): unknown {
  switch (typeOf(schema)) {
    case 'string':
      return { $gt: '' };
    case 'object':
      return 'not an object';
    case 'array':
      return { not: 'a list' };
    case 'boolean':
      return 'maybe';
    default:
      return 'NaN';
  }
}

const gzipBomb = gzipSync(Buffer.alloc(100 * 1024 * 1024, ' '));
const deepArray = (n: number) => '['.repeat(n) + ']'.repeat(n);
const deepObject = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
// Built once: every route's probes send them.
const deepArrayText = deepArray(deep);
const deepObjectText = deepObject(deep);
const twoMegabyteBody = JSON.stringify({ _id: 'x', big: 'b'.repeat(2 * 1024 * 1024) });

function fillPath(op: Operation, id: string): string {
  return op.path.replace(/\{[^}]+\}/g, id);
}

function probes(op: Operation): Probe[] {
  const plain = fillPath(op, 'hostile-probe');
  const out: Probe[] = [];
  // Odd ids in the path.
  if (op.pathParams.length > 0) {
    for (const [what, id] of [
      ['traversal', '..%2F..%2F..%2Fetc%2Fpasswd'],
      ['raw traversal', '../../etc'],
      ['NUL', 'a%00b'],
      ['100k characters', 'i'.repeat(100_000)],
      ['8k characters', 'i'.repeat(8_000)],
      ['256 characters', 'i'.repeat(256)],
      ['bad percent encoding', '%E0%A4%A'],
      ['invalid escape', '%ZZ'],
      ['operator injection', encodeURIComponent('{"$ne":null}')],
      ['code injection', encodeURIComponent('{"$where":"sleep(10000)"}')],
      ['non-object JSON', encodeURIComponent('[1,2]')],
      ['deep JSON', encodeURIComponent(deepObject(200))],
    ] as const) {
      out.push({ what: `path id: ${what}`, path: fillPath(op, id) });
    }
  }
  // Queries: wrong types, injection, long values, for every documented parameter and a few undocumented ones.
  const names = [...new Set([...op.queryParams.map((q) => q.name), 'filter', 'search', 'limit'])];
  for (const name of names) {
    for (const [what, value] of [
      ['operator', '{"$ne":null}'],
      ['code', '{"$where":"1"}'],
      ['bracket injection', undefined],
      ['long', 'q'.repeat(6000)],
      ['negative', '-1'],
      ['huge number', '1e400'],
      ['deep JSON', deepArray(500)],
      ['prototype path', '__proto__'],
      ['nested prototype path', 'v.__proto__'],
      ['prototype field in a filter', '{"v.__proto__.x":1}'],
      ['prototype field under $and', '{"$and":[{"a.__proto__":1}]}'],
    ] as const) {
      const query = value === undefined ? `${name}[$ne]=x` : `${name}=${encodeURIComponent(value)}`;
      out.push({ what: `query ${name}: ${what}`, path: `${plain}?${query}` });
    }
  }
  out.push({ what: 'query: bad percent encoding', path: `${plain}?limit=%E0%A4%A&search=%ZZ` });
  out.push({ what: 'query: repeated parameter', path: `${plain}?limit=1&limit=2&search=a&search=b` });
  if (!['POST', 'PUT', 'PATCH'].includes(op.method) || op.media.length === 0) return out;

  const json = (what: string, body: string, options: { refused?: boolean; field?: string } = {}) => out.push({ what, path: plain, body, contentType: 'application/json', ...options });
  json('malformed JSON', '{"a":');
  json('not JSON', 'hello');
  for (const value of ['[]', '"a string"', '42', 'null', 'true', '[{}]']) json(`non-object JSON ${value}`, value);
  json('duplicate keys', '{"_id":"a","_id":{"$gt":""}}');
  json('missing required fields', '{}');
  json(`whole body nested ${deep} deep (arrays)`, deepArrayText);
  json(`whole body nested ${deep} deep (objects)`, deepObjectText);
  json('top-level operators', '{"$ne":null,"$where":"sleep(1000)","$or":[{"$expr":{}}]}');
  json('prototype keys', '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}');
  out.push({ what: 'body over 2 MB', path: plain, body: twoMegabyteBody, contentType: 'application/json' });
  out.push({ what: 'wrong content type', path: plain, body: '<a/>', contentType: 'application/xml' });
  out.push({ what: 'gzip bomb (100 MB of spaces)', path: plain, body: gzipBomb, contentType: 'application/json', headers: { 'content-encoding': 'gzip' } });
  out.push({ what: 'unknown content encoding', path: plain, body: '{}', contentType: 'application/json', headers: { 'content-encoding': 'br, zstd, x-evil' } });
  out.push({ what: 'UTF-16 charset', path: plain, body: Buffer.from('{"a":1}', 'utf16le'), contentType: 'application/json; charset=utf-16' });
  out.push({ what: 'unknown charset', path: plain, body: '{"a":1}', contentType: 'application/json; charset=x-evil' });
  out.push({ what: 'form body', path: plain, body: 'json=%7B%22cis%22%3A1%7D&a[b]=c', contentType: 'application/x-www-form-urlencoded' });

  const base = (typeof sample(op.bodySchema) === 'object' ? sample(op.bodySchema) : {}) as Record<string, unknown>;
  const fields = Object.entries(op.bodySchema?.properties ?? {});
  const required = op.bodySchema?.required ?? [];
  for (const name of required) {
    const body = { ...base };
    delete body[name];
    json(`missing ${name}`, JSON.stringify(body));
  }
  for (const [name, schema] of fields) {
    const withField = (value: string) => JSON.stringify({ ...base, [name]: '__FIELD__' }).replace('"__FIELD__"', value);
    json(`${name}: wrong type`, JSON.stringify({ ...base, [name]: wrongType(schema) }));
    json(`${name}: null`, JSON.stringify({ ...base, [name]: null }));
    json(`${name}: nested ${deep} deep`, withField(deepArrayText));
    json(`${name}: JSON text nested ${deep} deep`, JSON.stringify({ ...base, [name]: deepObjectText }));
    json(`${name}: 300 KB string`, JSON.stringify({ ...base, [name]: 's'.repeat(300_000) }), { refused: true, field: name });
    json(`${name}: 20k-element list`, withField(`[${new Array(20_000).fill('"x"').join(',')}]`), { refused: true, field: name });
    json(`${name}: operator injection`, JSON.stringify({ ...base, [name]: { $where: 'sleep(1000)', $gt: '' } }));
    json(`${name}: top-level operator filter`, JSON.stringify({ ...base, [name]: { $ne: null } }));
    json(`${name}: top-level operator filter as text`, JSON.stringify({ ...base, [name]: '{"$ne": null}' }));
    json(`${name}: list of deep objects`, withField(`[${deepObject(100)}]`));
    json(`${name}: huge number`, withField('1e400'));
    json(`${name}: lone surrogate`, JSON.stringify({ ...base, [name]: '\ud800x' }));
    json(`${name}: NUL and traversal`, JSON.stringify({ ...base, [name]: '../\u0000/..\\x' }));
    json(`${name}: prototype key`, withField('{"__proto__":{"polluted":true},"constructor":{"prototype":{}}}'));
  }
  return out;
}

/** Sends bytes no HTTP client library would (raw NUL, control characters, invalid UTF-8 in the path); resolves with the status line. */
function sendRaw(path: Buffer, method: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer'));
    }, answerBoundMs);
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received.split('\r\n')[0] ?? '');
    });
    socket.write(Buffer.concat([Buffer.from(`${method} `), path, Buffer.from(` HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)]));
  });
}

const rawIds: [string, Buffer][] = [
  ['raw NUL', Buffer.from('a\u0000b', 'latin1')],
  ['raw control characters', Buffer.from('a\u0001\u001b[2Jb', 'latin1')],
  ['invalid UTF-8', Buffer.from([0x61, 0xff, 0xfe, 0xc0, 0x80])],
  ['raw space', Buffer.from('a b')],
];

/**
 * The event route answers 200 and bounds events one by one: refused in `failed_events`, or, for `output` and
 * `long_output`, cut (a non-string `long_output` emptied) as the original does (REFERENCE §4.13).
 */
function boundedEvents(text: string, field: string): boolean {
  try {
    const answer = JSON.parse(text) as { sent_events?: Record<string, unknown>[]; failed_events?: unknown[] };
    if (!Array.isArray(answer.sent_events) || !Array.isArray(answer.failed_events)) return false;
    return answer.sent_events.every((event) => typeof event[field] === 'string' && (event[field] as string).length <= 1024);
  } catch {
    return false;
  }
}

/** An import is checked when it is processed (its status then says why it failed), not when it is submitted (REFERENCE §7). */
function submittedForLater(op: Operation): boolean {
  return op.path === '/api/contextgraph/import';
}

/** The only 5xx the spec lists: an invalid alarm-filter body gets a 500 HTML page. */
function specListed(op: Operation, status: number, contentType: string): boolean {
  return op.path.startsWith('/api/v2/alerts/filters') && ['POST', 'PUT'].includes(op.method) && status === 500 && contentType.startsWith('text/html');
}

/** Buffers as plain bytes: with DOM types in the test program (a SAML test's dependency), fetch does not take a Buffer. */
function toBodyInit(body: string | Buffer | undefined): string | Uint8Array<ArrayBuffer> | undefined {
  return typeof body === 'string' || body === undefined ? body : new Uint8Array(body);
}

async function send(op: Operation, probe: Probe): Promise<{ status: number; type: string; ms: number; text: string; requestId: string }> {
  const started = Date.now();
  const headers: Record<string, string> = { authorization: auth };
  if (probe.contentType) headers['content-type'] = probe.contentType;
  Object.assign(headers, probe.headers);
  const res = await fetch(`${url}${probe.path}`, { method: op.method, headers, body: toBodyInit(probe.body), signal: AbortSignal.timeout(answerBoundMs * 2) });
  const type = res.headers.get('content-type') ?? '';
  // A stream (server-sent events) never ends: its answer is its status and headers.
  if (type.startsWith('text/event-stream')) {
    await res.body?.cancel();
    return { status: res.status, type, ms: Date.now() - started, text: '', requestId: res.headers.get('x-request-id') ?? '' };
  }
  const text = await res.text();
  return { status: res.status, type, ms: Date.now() - started, text, requestId: res.headers.get('x-request-id') ?? '' };
}

/** Routes whose requests the audit log counts by the minute (`audit: 'tally'`) rather than one by one. */
const talliedPaths = new Set(['/api/v2/event', '/event']);

/** The request ids of every record of the audit log, and the requests counted by the minute, by route. */
async function auditedRequests(): Promise<{ ids: Set<string>; tallied: Map<string, number> }> {
  const ids = new Set<string>();
  const tallied = new Map<string, number>();
  for (let page = 1; ; page += 1) {
    const res = (await (await fetch(`${url}/api/v2/audit?limit=1000&page=${page}`, { headers: { authorization: auth } })).json()) as {
      data: { requestId: string; route: string; requests?: number }[];
    };
    for (const record of res.data) {
      ids.add(record.requestId);
      if (record.requests !== undefined) tallied.set(record.route, (tallied.get(record.route) ?? 0) + record.requests);
    }
    if (res.data.length < 1000) return { ids, tallied };
  }
}

describe('hostile input on every route of the composed server', () => {
  it('answers every probe with a 4xx or a listed status, in time, and stays healthy', async () => {
    expect(operations.length).toBeGreaterThan(50);
    const problems: string[] = [];
    /** The changes the walk made (a write answered below 400): each must be in the audit log. */
    const changes: string[] = [];
    /** The same, for the routes counted by the minute: how many, by route. */
    const talliedChanges = new Map<string, number>();
    for (const op of operations) {
      for (const probe of probes(op)) {
        let answer;
        try {
          answer = await send(op, probe);
        } catch (err) {
          problems.push(`${op.method} ${op.path} [${probe.what}]: no answer (${(err as Error).message})`);
          continue;
        }
        if (answer.status >= 500 && !specListed(op, answer.status, answer.type)) {
          problems.push(`${op.method} ${op.path} [${probe.what}]: ${answer.status} ${answer.text.slice(0, 200)}`);
        }
        if (probe.refused && answer.status < 400 && !(probe.field !== undefined && boundedEvents(answer.text, probe.field)) && !submittedForLater(op)) problems.push(`${op.method} ${op.path} [${probe.what}]: accepted (${answer.status})`);
        if (answer.ms > answerBoundMs) problems.push(`${op.method} ${op.path} [${probe.what}]: answered in ${answer.ms} ms`);
        if (op.method !== 'GET' && answer.status < 400 && !op.isPublic) {
          if (talliedPaths.has(op.path)) talliedChanges.set(op.path, (talliedChanges.get(op.path) ?? 0) + 1);
          else changes.push(answer.requestId);
        }
      }
      if (op.pathParams.length > 0) {
        const [before, after] = op.path.split(/\{[^}]+\}/, 2) as [string, string | undefined];
        for (const [what, id] of rawIds) {
          const path = Buffer.concat([Buffer.from(before), id, Buffer.from((after ?? '').replace(/\{[^}]+\}/g, 'x'))]);
          try {
            const statusLine = await sendRaw(path, op.method);
            const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0);
            if (status >= 500 && !specListed(op, status, 'text/html')) problems.push(`${op.method} ${op.path} [path id: ${what}]: ${statusLine}`);
          } catch (err) {
            problems.push(`${op.method} ${op.path} [path id: ${what}]: ${(err as Error).message}`);
          }
        }
      }
      // (fetch refuses to send TRACE.)
      for (const method of ['HEAD', 'OPTIONS', 'PATCH', 'PROPFIND']) {
        const res = await fetch(`${url}${fillPath(op, 'hostile-probe')}`, { method, headers: { authorization: auth } }).catch((err: Error) => err);
        if (res instanceof Error) problems.push(`${method} ${op.path}: no answer (${res.message})`);
        else if (res.status >= 500) problems.push(`${method} ${op.path}: ${res.status}`);
      }
      const health = await fetch(`${url}/api/v2/account/me`, { headers: { authorization: auth } });
      if (health.status !== 200) problems.push(`${op.method} ${op.path}: server unhealthy afterwards (${health.status})`);
    }
    expect(problems).toEqual([]);
    const audited = await auditedRequests();
    expect(changes.length).toBeGreaterThan(20);
    expect(changes.filter((id) => !audited.ids.has(id))).toEqual([]);
    expect(talliedChanges.size).toBeGreaterThan(0);
    for (const [path, count] of talliedChanges) expect(audited.tallied.get(path) ?? 0, `requests of ${path} counted`).toBeGreaterThanOrEqual(count);
  }, 600_000);
});

describe('hostile credentials', () => {
  it('answers every malformed or injected credential with a 4xx', async () => {
    const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;
    const attempts: [string, Record<string, string>, string?][] = [
      ['no scheme', { authorization: 'root:admin' }],
      ['empty basic', { authorization: 'Basic ' }],
      ['invalid base64', { authorization: 'Basic %%%###' }],
      ['no colon', { authorization: basic('root') }],
      ['empty user and password', { authorization: basic(':') }],
      ['60 KB of credentials', { authorization: basic(`${'u'.repeat(30_000)}:${'p'.repeat(30_000)}`) }],
      ['NUL and operators in the user', { authorization: basic('{"$ne":null}\u0000:x') }],
      ['unknown scheme', { authorization: 'Bearer eyJhbGciOiJub25lIn0.e30.' }],
      ['operator as authkey header', { 'x-canopsis-authkey': '{"$ne":null}' }],
      ['huge authkey header', { 'x-canopsis-authkey': 'k'.repeat(50_000) }],
      ['operator as authkey query', {}, '?authkey[$ne]=x&authkey=%7B%22%24ne%22%3Anull%7D'],
      ['bad percent encoding in the authkey query', {}, '?authkey=%E0%A4%A'],
    ];
    for (const [what, headers, query = ''] of attempts) {
      const res = await fetch(`${url}/api/v2/account/me${query}`, { headers });
      expect(res.status, what).toBeGreaterThanOrEqual(400);
      expect(res.status, what).toBeLessThan(500);
    }
  });
});

describe('slow clients against the composed server', () => {
  it('cuts 50 sockets trickling their header after [server] headers_timeout_ms while normal requests keep answering', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigie-slow-'));
    mkdirSync(join(dir, 'etc'));
    // The request timeout is far away and each header takes a minute to arrive: only the header timeout can answer 408
    // (no upper bound on the time, which a busy machine would stretch).
    writeFileSync(join(dir, 'etc', 'webserver.conf'), '[log]\nlevel = silent\n[server]\nheaders_timeout_ms = 500\nrequest_timeout_ms = 600000\n');
    const slowKernel = await createServerKernel({ installDir: dir, env: { VIGIE_ADMIN_PASSWORD: password }, port: 0 });
    const { url: slowUrl } = await slowKernel.start();
    const { hostname, port } = new URL(slowUrl);
    try {
      const cut = Array.from({ length: 50 }, () => {
        const socket = connect(Number(port), hostname);
        const opened = Date.now();
        let received = '';
        const header = `GET /api/v2/account/me HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nX-Padding: ${'p'.repeat(500)}\r\n\r\n`;
        let i = 0;
        const timer = setInterval(() => (i < header.length && !socket.destroyed ? socket.write(header[i++] as string) : clearInterval(timer)), 100);
        socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
        socket.on('error', () => undefined);
        return new Promise<{ received: string; ms: number }>((resolve) =>
          socket.on('close', () => {
            clearInterval(timer);
            resolve({ received, ms: Date.now() - opened });
          }),
        );
      });
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`${slowUrl}/api/v2/account/me`, { headers: { authorization: auth } });
        expect(res.status).toBe(200);
      }
      for (const outcome of await Promise.all(cut)) {
        expect(outcome.received).toMatch(/^HTTP\/1\.1 408/);
        expect(outcome.ms).toBeGreaterThanOrEqual(450);
      }
    } finally {
      await slowKernel.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
