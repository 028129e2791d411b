import { fileURLToPath } from 'node:url';
import { startSourceServer } from '@vigie/kernel/testing';

const fixture = fileURLToPath(new URL('./fixtures/engines-server.ts', import.meta.url));
const authorization = `Basic ${Buffer.from('root:root-password').toString('base64')}`;

export interface EnginesServer {
  url: string;
  exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): void;
  request(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read JSON answers freely
  /** The open (or, with `resolved`, resolved) alarm of an entity, with its steps, or undefined. */
  alarm(entityId: string, resolved?: boolean): Promise<{ _id: string; d: string; v: Record<string, any> } | undefined>; // eslint-disable-line @typescript-eslint/no-explicit-any -- idem
}

/**
 * Starts `fixtures/engines-server.ts` (or another server fixture taking the same argument) on `installDir` in its own
 * process; resolves once it listens.
 */
export async function startEnginesServer(installDir: string, serverFixture: string = fixture): Promise<EnginesServer> {
  const { child, url, exited } = await startSourceServer(serverFixture, [installDir]);
  const request = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as unknown };
  };
  const alarm = async (entityId: string, resolved = false) => {
    const query = resolved ? 'opened=false&resolved=true' : 'opened=true';
    const res = await request('GET', `/alerts/get-alarms?with_steps=true&limit=100&${query}`);
    return (res.body as { data: { alarms: { _id: string; d: string; v: Record<string, unknown> }[] }[] }).data[0]!.alarms.find((a) => a.d === entityId);
  };
  return { url, exited, kill: (signal) => child.kill(signal), request, alarm };
}

/** Polls `probe` every 100 ms until it answers something truthy, for at most `timeoutMs`. */
export async function waitFor<T>(probe: () => Promise<T | undefined | false>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
