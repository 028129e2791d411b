// How the benchmarks' clients read `GET /api/v2/alarms/stream`: as a screen does, frame by frame.
import type { IncomingMessage } from 'node:http';

/** Calls `onFrame` with each server-sent-events frame of the answer and the time its chunk arrived (epoch ms). */
export function readFrames(res: IncomingMessage, onFrame: (frame: string, arrivedAt: number) => void): void {
  res.setEncoding('utf8');
  let buffer = '';
  res.on('data', (chunk: string) => {
    const now = Date.now();
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      onFrame(buffer.slice(0, end), now);
      buffer = buffer.slice(end + 2);
    }
  });
}
