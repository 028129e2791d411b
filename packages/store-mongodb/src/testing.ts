import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// The jongodb wire-compatible test server, for the tests of any package: no real MongoDB server runs on the
// machines that test Vigie. It has named gaps (see the tests that use it); MONGODB_URL, where set, is preferred.

const jongodbPackage = '@jongodb/memory-server-bin-linux-x64-gnu';

/** Arguments that make jongodb a single-node replica set: `hello` reports a set name, batches run in transactions. */
export const jongodbReplicaSetArgs: readonly string[] = ['--topology-profile=singlenodereplicaset', '--replica-set-name=rs0'];

/** The jongodb binary, if it is installed and runs on this machine; otherwise why not. */
export function locateJongodb(): { binary: string } | { unavailable: string } {
  let binary: string;
  try {
    binary = join(dirname(createRequire(import.meta.url).resolve(`${jongodbPackage}/package.json`)), 'bin', 'jongodb');
  } catch {
    return { unavailable: `${jongodbPackage} is not installed (it exists for linux x64 glibc; this is ${process.platform} ${process.arch})` };
  }
  // An invalid port makes the launcher exit at once with a known message: proof that the binary runs here.
  const probe = spawnSync(binary, ['--port=-1'], { encoding: 'utf8', timeout: 30_000 });
  if (probe.error) return { unavailable: `the jongodb binary cannot run here (${(probe.error as NodeJS.ErrnoException).code ?? probe.error.message})` };
  if (!probe.stderr.includes('port must be between')) {
    return { unavailable: `the jongodb binary cannot run here (exit ${String(probe.status ?? probe.signal)}: ${probe.stderr.slice(0, 300)})` };
  }
  return { binary };
}

export interface RunningJongodb {
  /** The connection string jongodb printed (`mongodb://127.0.0.1:<port>/test…`). */
  url: string;
  stop(): Promise<void>;
}

/** Starts jongodb on a port the system picks (`--port=0`) and waits for its `JONGODB_URI=` ready line. */
export async function startJongodb(binary: string, args: readonly string[] = []): Promise<RunningJongodb> {
  const child = spawn(binary, ['--host=127.0.0.1', '--port=0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no JONGODB_URI line within 30 s')), 30_000);
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        const ready = /^JONGODB_URI=(\S+)$/m.exec(output);
        if (ready?.[1]) {
          clearTimeout(timer);
          resolve(ready[1]);
        }
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      child.once('error', reject);
      child.once('exit', (code, signal) => reject(new Error(`exited with ${String(code ?? signal)}`)));
    });
    return { url, stop: () => stopProcess(child) };
  } catch (err) {
    await stopProcess(child);
    throw new Error(`jongodb did not start: ${(err as Error).message}\n${output}`);
  }
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** `url` with its database (the path) replaced by `database`, its options kept: `mongodb://h1,h2/old?x=1` → `…/database?x=1`. */
export function withDatabase(url: string, database: string): string {
  const parts = /^(mongodb(?:\+srv)?:\/\/[^/?]*)(?:\/[^?]*)?(\?.*)?$/.exec(url);
  if (!parts?.[1]) throw new Error(`not a MongoDB connection string: ${url}`);
  return `${parts[1]}/${database}${parts[2] ?? ''}`;
}
