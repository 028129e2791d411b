import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { nameContextAccessors } from './koa-context.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** Serves `app` and answers one request to `path` with `init`. */
async function ask(app: Koa, path: string, init?: RequestInit): Promise<{ status: number; headers: Headers; text: string }> {
  server = createServer(app.callback());
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const res = await fetch(`http://127.0.0.1:${port}${path}`, init);
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** What a middleware reads and writes through the context, the way handlers do. */
function exercise(app: Koa): void {
  app.use((ctx) => {
    const seen = { method: ctx.method, path: ctx.path, url: ctx.url, querystring: ctx.querystring, query: ctx.query, header: ctx.get('x-probe'), headers: ctx.headers['x-probe'], same: ctx.header === ctx.headers };
    ctx.path = '/rewritten';
    ctx.status = 202;
    ctx.message = 'Taken';
    ctx.set('X-One', '1');
    ctx.set({ 'X-Two': '2', 'X-Gone': 'x' });
    ctx.remove('X-Gone');
    ctx.type = 'json';
    ctx.body = { seen, rewritten: ctx.path, has: ctx.has('X-One'), writable: ctx.writable, headerSent: ctx.headerSent, status: ctx.status, type: ctx.type };
    ctx.length = Buffer.byteLength(JSON.stringify(ctx.body));
  });
}

describe('nameContextAccessors', () => {
  it("reads and writes the request and response as Koa's own delegation does", async () => {
    const answers = [];
    for (const named of [false, true]) {
      const app = new Koa();
      if (named) nameContextAccessors(app.context);
      exercise(app);
      const res = await ask(app, '/a/b?x=1&y=2', { headers: { 'x-probe': 'p' } });
      await new Promise((resolve) => server?.close(resolve));
      server = undefined;
      answers.push({ status: res.status, type: res.headers.get('content-type'), one: res.headers.get('x-one'), two: res.headers.get('x-two'), gone: res.headers.get('x-gone'), length: res.headers.get('content-length'), text: res.text });
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[1]).toMatchObject({ status: 202, type: 'application/json; charset=utf-8', one: '1', two: '2', gone: null });
    expect(JSON.parse(answers[1]?.text ?? '')).toEqual({
      seen: { method: 'GET', path: '/a/b', url: '/a/b?x=1&y=2', querystring: 'x=1&y=2', query: { x: '1', y: '2' }, header: 'p', headers: 'p', same: true },
      rewritten: '/rewritten',
      has: true,
      writable: true,
      headerSent: false,
      status: 202,
      type: 'application/json',
    });
  });
});
