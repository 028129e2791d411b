// The screens of the stream benchmark (bench/alarm-stream.ts), in their own process as browsers are: opens many
// `GET /api/v2/alarms/stream` connections, reads them all, and for a sample of them notes when each alarm change
// (`ERR-<n>` in its output) arrived.
import { request, Agent } from 'node:http';
import { readFrames } from './sse-frames.js';

export type ClientsRequest = { kind: 'open'; url: string; authorization: string; streams: number; sampled: number } | { kind: 'report' } | { kind: 'close' };

export interface ClientsReply {
  /** `open`: streams answering 200. `report`: arrivals of the sample as [n, epoch ms] pairs, flattened. */
  open?: number;
  arrivals?: number[];
  /** Messages read on every stream, and streams the server closed. */
  messages?: number;
  ended?: number;
  cpuSeconds?: number;
}

const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
const requests: ReturnType<typeof request>[] = [];
let arrivals: number[] = [];
let messages = 0;
let ended = 0;

function open(url: string, authorization: string, sampled: boolean): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(new URL('/api/v2/alarms/stream', url), { agent, headers: { authorization, accept: 'text/event-stream' } });
    requests.push(req);
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        resolve(false);
        return;
      }
      readFrames(res, (frame, now) => {
        if (!frame.includes('\ndata: ') && !frame.startsWith('data: ')) return;
        messages += 1;
        if (sampled) {
          const n = /ERR-(\d+)/.exec(frame);
          if (n) arrivals.push(Number(n[1]), now);
        }
      });
      res.on('close', () => (ended += 1));
      resolve(true);
    });
    req.on('error', () => resolve(false));
    req.end();
  });
}

process.on('message', (message: ClientsRequest) => {
  void (async () => {
    if (message.kind === 'open') {
      const opened = [];
      for (let i = 0; i < message.streams; i++) opened.push(open(message.url, message.authorization, i < message.sampled));
      const answers = await Promise.all(opened);
      process.send?.({ open: answers.filter(Boolean).length } satisfies ClientsReply);
    } else if (message.kind === 'report') {
      const cpu = process.cpuUsage();
      process.send?.({ arrivals, messages, ended, cpuSeconds: (cpu.user + cpu.system) / 1e6 } satisfies ClientsReply);
      arrivals = [];
      messages = 0;
    } else {
      for (const req of requests) req.destroy();
      process.send?.({} satisfies ClientsReply);
    }
  })();
});
