import { useEffect, useRef, useState } from 'react';

/** Whether a server-sent event stream is delivering: shown to the user, and polling stands in while it is not. */
export type LiveStatus = 'connecting' | 'live' | 'reconnecting';

/** Waits between reopenings of a stream the server closed for good: doubling from 1 s up to 30 s. */
const firstRetryMs = 1000;
const longestRetryMs = 30_000;

export interface StreamHandlers {
  /** Each `data:` message, parsed. */
  message: (data: unknown) => void;
  /** The stream cannot replay what was missed (the server's `reload` message, or a stream opened anew): read again. */
  reload: () => void;
  /** The stream delivers from now on (its first opening; a reopening calls `reload`). */
  open?: () => void;
}

/**
 * Follows a server-sent event stream of this server while `url` is set. The browser's EventSource reconnects by
 * itself (and resumes with `Last-Event-ID`) after a dropped connection; when the server refuses the stream
 * instead (503 when full, 401, a restart), it is opened again after a growing wait, and `reload` asks the screen to
 * read afresh since messages may have been missed.
 */
export function useEventStream(url: string | null, handlers: StreamHandlers): LiveStatus {
  // The status of the stream of `url`: a new url starts 'connecting' from its first render, not once its effect ran.
  const [state, setState] = useState<{ url: string | null; status: LiveStatus }>({ url, status: 'connecting' });
  // The latest handlers, without reopening the stream when the screen re-renders.
  const latest = useRef(handlers);
  latest.current = handlers;

  useEffect(() => {
    if (url === null) return;
    let source: EventSource | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let retryMs = firstRetryMs;
    let reopened = false;
    const setStatus = (status: LiveStatus) => setState({ url, status });
    const open = () => {
      setStatus(reopened ? 'reconnecting' : 'connecting');
      const stream = new EventSource(url, { withCredentials: true });
      source = stream;
      stream.onopen = () => {
        retryMs = firstRetryMs;
        setStatus('live');
        if (reopened) latest.current.reload();
        else latest.current.open?.();
      };
      stream.onmessage = (event: MessageEvent<string>) => {
        try {
          latest.current.message(JSON.parse(event.data));
        } catch {
          // Not JSON: not a message of this server's streams.
        }
      };
      stream.addEventListener('reload', () => latest.current.reload());
      stream.onerror = () => {
        if (stream.readyState === EventSource.CONNECTING) {
          setStatus('reconnecting');
          return;
        }
        stream.close();
        reopened = true;
        setStatus('reconnecting');
        timer = setTimeout(open, retryMs);
        retryMs = Math.min(longestRetryMs, retryMs * 2);
      };
    };
    open();
    return () => {
      clearTimeout(timer);
      source?.close();
    };
  }, [url]);

  return url === null || state.url !== url ? 'connecting' : state.status;
}
