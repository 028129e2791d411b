import { injectable } from 'tsyringe';
import { EnvHttpProxyAgent, fetch } from 'undici';
import { injectRef, kernelRefs } from '@vigie/kernel';

/** What one HTTP attempt gave: the answer, or why there was none. */
export type SendOutcome = { status: number; body: string } | { error: string };

export interface OutgoingRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

/** Bytes of an answer kept (ticket fields are read from it); the rest is not read. */
export const maxAnswerBytes = 1024 * 1024;

/**
 * Sends webhook requests with undici, through the proxies of `HTTP_PROXY`, `HTTPS_PROXY` and `NO_PROXY` (or their
 * lower-case forms) from the environment the server was given. The timeout covers the whole attempt: connection,
 * answer headers and the body.
 */
@injectable()
export class HttpSender {
  readonly #agent: EnvHttpProxyAgent;

  constructor(@injectRef(kernelRefs.env) env: Readonly<Record<string, string | undefined>>) {
    const pick = (name: string) => env[name] ?? env[name.toLowerCase()];
    const httpProxy = pick('HTTP_PROXY');
    const httpsProxy = pick('HTTPS_PROXY');
    const noProxy = pick('NO_PROXY');
    this.#agent = new EnvHttpProxyAgent({
      ...(httpProxy ? { httpProxy } : {}),
      ...(httpsProxy ? { httpsProxy } : {}),
      ...(noProxy !== undefined ? { noProxy } : {}),
    });
  }

  async send(request: OutgoingRequest): Promise<SendOutcome> {
    const signal = AbortSignal.timeout(request.timeoutMs);
    try {
      const answer = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        ...(request.body !== undefined && request.method !== 'GET' && request.method !== 'HEAD' ? { body: request.body } : {}),
        dispatcher: this.#agent,
        signal,
        redirect: 'manual',
      });
      return { status: answer.status, body: await readBounded(answer.body) };
    } catch (err) {
      if (signal.aborted) return { error: `no answer within ${request.timeoutMs} ms (timeout)` };
      return { error: describe(err) };
    }
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }
}

// The stream's element type differs between Node's and the DOM's declarations (both may be loaded): read bytes.
interface ByteStream {
  getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array }>; cancel(): Promise<void> };
}

async function readBounded(body: ByteStream | null): Promise<string> {
  if (!body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done || !value) break;
    chunks.push(value);
    size += value.byteLength;
    if (size >= maxAnswerBytes) {
      await reader.cancel();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, maxAnswerBytes).toString('utf8');
}

/** The cause of a failed fetch, without the URL's credentials (undici puts the cause in `cause`). */
function describe(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${cause.message}` : cause.message;
  }
  return String(cause);
}
