import { connect, createServer } from 'node:net';
import { describe, it } from 'vitest';

/** Whether something accepts TCP connections at host:port within `timeoutMs`. */
export function tcpReachable(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Registers a suite that needs an external service (RabbitMQ, Redis, LDAP…). When the service is absent the suite
 * is skipped with a loud warning — unless `VIGIE_REQUIRE_SERVICES=1` (set by `.ci/run`), where its absence fails.
 */
export function describeWithService(service: string, available: boolean, body: () => void): void {
  if (available) {
    describe(`with ${service}`, body);
    return;
  }
  if (process.env.VIGIE_REQUIRE_SERVICES === '1') {
    describe(`with ${service}`, () => {
      it(`${service} is reachable`, () => {
        throw new Error(`${service} is required (VIGIE_REQUIRE_SERVICES=1) but could not be reached`);
      });
    });
    return;
  }
  console.warn(`\n*** SKIPPED: ${service} is not reachable, so its tests did not run. Set VIGIE_REQUIRE_SERVICES=1 to make this a failure. ***\n`);
  describe.skip(`with ${service} (not reachable)`, body);
}

/** A loopback TCP port free right now, for a server a test starts in another process (slapd, an identity provider). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
