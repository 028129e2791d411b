import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';

/** Where a request came from, as far as the server can trust it. */
export interface ClientOrigin {
  /** The client's address: the peer's, or the one trusted proxies forwarded (`X-Forwarded-For`). */
  address: string;
  /** Whether the client used HTTPS: directly, or as a trusted proxy says (`X-Forwarded-Proto`). */
  secure: boolean;
}

/**
 * Reads the client's origin honouring `[server] trusted_proxies` only: forwarding headers count when the peer
 * (and each hop before it) is a trusted proxy, never otherwise, so a client cannot pose as another address or as
 * HTTPS by sending them itself.
 */
export function clientOriginReader(trustedProxies: string): (req: IncomingMessage) => ClientOrigin {
  const list = trustedProxies
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const trust = proxyAddr.compile(list);
  return (req) => {
    const peer = req.socket.remoteAddress ?? '';
    const peerTrusted = list.length > 0 && trust(peer, 0);
    const forwardedProto = peerTrusted ? String(req.headers['x-forwarded-proto'] ?? '').split(',')[0]?.trim() : undefined;
    const direct = (req.socket as { encrypted?: boolean }).encrypted === true;
    return { address: proxyAddr(req, trust), secure: direct || forwardedProto === 'https' };
  };
}

/** What `[server] trusted_proxies` accepts, for the configuration check: addresses, CIDR ranges or proxy-addr's names. */
export function trustedProxiesProblem(value: string): string | null {
  try {
    proxyAddr.compile(
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== ''),
    );
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}
