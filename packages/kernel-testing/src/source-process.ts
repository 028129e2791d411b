import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root, where `tsx` and the base TypeScript options live. */
export const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Runs a TypeScript entry point of this repository from sources in a child process (workspace packages resolve
 * to their `src/` through the `vigie-source` condition; tsx compiles with the base options, decorators included).
 * For tests that need a real process: crashes, signals, restarts.
 */
export function spawnSource(entry: string, args: readonly string[] = [], env: Readonly<Record<string, string | undefined>> = {}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--conditions=vigie-source', '--import', 'tsx', entry, ...args], {
    cwd: repositoryRoot,
    env: { ...process.env, TSX_TSCONFIG_PATH: `${repositoryRoot}tsconfig.base.json`, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** Calls `onLine` for each complete line a stream emits. */
export function onLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let buffered = '';
  stream.on('data', (chunk: Buffer | string) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
}

/** A fixture server started by `startSourceServer`. */
export interface SourceServer {
  child: ChildProcessWithoutNullStreams;
  /** The base URL the server printed. */
  url: string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  /** What the process wrote to stderr so far (for failure messages). */
  stderr(): string;
  /** Every line the process printed on stdout, from its start (what it logs before listening included). */
  lines: string[];
}

/**
 * Runs a fixture server with `spawnSource` and resolves once it prints `LISTENING <url>` on a line of its own; rejects
 * with what it wrote to stderr when it exits before that.
 */
export async function startSourceServer(entry: string, args: readonly string[] = [], env: Readonly<Record<string, string | undefined>> = {}): Promise<SourceServer> {
  const child = spawnSource(entry, args, env);
  const lines: string[] = [];
  onLines(child.stdout, (line) => void lines.push(line));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await Promise.race([
    new Promise<string>((resolve) => onLines(child.stdout, (line) => line.startsWith('LISTENING ') && resolve(line.slice('LISTENING '.length)))),
    exited.then(() => Promise.reject(new Error(`the server exited before listening: ${stderr}`))),
  ]);
  return { child, url, exited, stderr: () => stderr, lines };
}
