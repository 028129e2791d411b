// Slow clients and connection caps, with real sockets against the listening kernel.
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryStoreFactory } from '@vigie/documents';
import { startTestKernel, type TestKernel } from '@vigie/kernel-testing';
import { sampleFeature } from '../../kernel/test/sample-feature/feature.js';

let t: TestKernel | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await t?.stop();
  t = undefined;
});

const auth = `Basic ${Buffer.from('root:root').toString('base64')}`;

async function start(server: Record<string, number>): Promise<TestKernel> {
  t = await startTestKernel({ store: memoryStoreFactory(), features: [sampleFeature], config: { 'webserver.conf': { server } } });
  return t;
}

/** A raw connection; `closed` resolves with what the server sent and how long the connection lived. */
function open(kernel: TestKernel): Promise<{ socket: Socket; closed: Promise<{ received: string; ms: number }> }> {
  const { hostname, port } = new URL(kernel.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    sockets.push(socket);
    const opened = Date.now();
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    const closed = new Promise<{ received: string; ms: number }>((resolveClosed) => socket.on('close', () => resolveClosed({ received, ms: Date.now() - opened })));
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

/** Writes `text` one byte every `everyMs` while the socket is open. */
function trickle(socket: Socket, text: string, everyMs: number): void {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || i >= text.length) return clearInterval(timer);
    socket.write(text[i++] as string);
  }, everyMs);
  socket.once('close', () => clearInterval(timer));
}

describe('slow clients', () => {
  it('cuts a client sending its header a byte at a time after headers_timeout_ms, with a 408, while others are served', async () => {
    // The other timeouts are far away, and the header would take minutes to arrive: only the header timeout can cut
    // these clients with a 408 (no upper bound on the time, which a busy machine would stretch).
    const k = await start({ headers_timeout_ms: 400, request_timeout_ms: 600_000 });
    const slow = await Promise.all(Array.from({ length: 20 }, () => open(k)));
    for (const { socket } of slow) trickle(socket, `GET /api/v2/greet/slow HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nX-Padding: ${'p'.repeat(5000)}\r\n\r\n`, 50);
    // Normal requests keep answering meanwhile.
    expect((await k.get('/api/v2/greet/fast')).status).toBe(200);
    for (const { closed } of slow) {
      const { received, ms } = await closed;
      expect(received).toMatch(/^HTTP\/1\.1 408/);
      expect(ms).toBeGreaterThanOrEqual(350);
    }
    expect((await k.get('/api/v2/greet/fast')).status).toBe(200);
  });

  it('cuts a client sending its body too slowly after request_timeout_ms', async () => {
    // The body would take minutes to arrive: a 408 can only come from the request timeout.
    const k = await start({ headers_timeout_ms: 200, request_timeout_ms: 500 });
    const { socket, closed } = await open(k);
    socket.write(`POST /api/v2/greet HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n`);
    trickle(socket, `{"name":"${'n'.repeat(4990)}"}`, 50);
    const { received, ms } = await closed;
    expect(received).toMatch(/^HTTP\/1\.1 408/);
    expect(ms).toBeGreaterThanOrEqual(450);
  });

  it('closes a silent socket after socket_timeout_ms and an idle kept-alive one after keep_alive_timeout_ms', async () => {
    // The socket timeout is far from the keep-alive one, so that a busy machine cannot blur which closed the socket.
    const k = await start({ headers_timeout_ms: 20_000, request_timeout_ms: 30_000, socket_timeout_ms: 10_000, keep_alive_timeout_ms: 200 });
    const [silent, kept] = await Promise.all([open(k), open(k)]);
    kept.socket.write(`GET /api/v2/greet/ada HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\n\r\n`);
    const { received, ms } = await kept.closed;
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    // Node keeps an idle connection one second beyond the timeout it announces, so clients close first.
    expect(ms).toBeGreaterThanOrEqual(150);
    expect(ms).toBeLessThan(9_000);
    const { ms: silentMs } = await silent.closed;
    expect(silentMs).toBeGreaterThanOrEqual(9_950);
  });

  it('refuses connections beyond max_connections, and accepts again once some close', async () => {
    // A connection over the cap is closed at once and silently; one under it would wait for its header (408 after the
    // header timeout, far away).
    const k = await start({ max_connections: 3, headers_timeout_ms: 60_000, request_timeout_ms: 120_000 });
    const held = await Promise.all([open(k), open(k), open(k)]);
    const extra = await open(k);
    const { received, ms } = await extra.closed;
    expect(received).toBe('');
    expect(ms).toBeLessThan(60_000);
    for (const { socket } of held) socket.destroy();
    await Promise.all(held.map((h) => h.closed));
    // The server counts a connection as gone once it sees it close, which may take a moment on a busy machine.
    await vi.waitFor(
      async () => {
        const res = await fetch(`${k.url}/api/v2/greet/ada`, { headers: { authorization: auth, connection: 'close' } });
        expect(res.status).toBe(200);
      },
      { timeout: 60_000, interval: 50 },
    );
  });

  it('refuses a header timeout longer than the request timeout at start', async () => {
    await expect(start({ headers_timeout_ms: 5000, request_timeout_ms: 1000 })).rejects.toThrow('headers_timeout_ms must not exceed request_timeout_ms');
  });
});
