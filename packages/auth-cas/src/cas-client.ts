import { createHash } from 'node:crypto';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { injectable } from 'tsyringe';
import { collectionRef, ErrorCodes, injectRef, kernelRefs, type Clock, type Collection, type Doc, type FeatureStore } from '@vigie/kernel';
import { casConfig, type CasConfig } from './config.js';

const casNamespace = 'http://www.yale.edu/tp/cas';
/** CAS protocol 3.0 §3.1: tickets are at most 256 characters; anything else is refused unsent. */
const ticketPattern = /^[\x21-\x7e]{1,256}$/;
const maxAnswerBytes = 256 * 1024;

/** What a ticket validation gives. */
export type TicketCheck = { user: string; attributes: Record<string, string> } | { refused: string };

/** A ticket Vigie has presented once, by digest, so a replayed one is refused even by a lax server. */
export const usedTicketCollection = collectionRef<UsedTicket>('cas_tickets');

export interface UsedTicket extends Doc {
  _id: string;
  at: number;
}

function children(parent: Element, localName: string): Element[] {
  return Array.from(parent.getElementsByTagNameNS(casNamespace, localName));
}

/** Reads a CAS 2.0/3.0 `serviceResponse` (attributes in `cas:attributes`, first value of each). */
export function parseServiceResponse(xml: string): TicketCheck {
  let root: Element | null;
  try {
    // Parse problems become the refusal below, not console noise.
    root = new DOMParser({ onError: () => undefined }).parseFromString(xml, 'text/xml').documentElement;
  } catch (err) {
    return { refused: `unreadable serviceValidate answer: ${(err as Error).message}` };
  }
  if (!root || root.namespaceURI !== casNamespace || root.localName !== 'serviceResponse') return { refused: 'the serviceValidate answer is not a cas:serviceResponse' };
  const [failure] = children(root, 'authenticationFailure');
  if (failure) return { refused: `the CAS server refused the ticket: ${failure.getAttribute('code') ?? ''} ${(failure.textContent ?? '').trim()}`.trim() };
  const [success] = children(root, 'authenticationSuccess');
  const [user] = success ? children(success, 'user') : [];
  const name = (user?.textContent ?? '').trim();
  if (!success || name === '') return { refused: 'the serviceValidate answer names no user' };
  const attributes: Record<string, string> = {};
  const [attributeList] = children(success, 'attributes');
  if (attributeList) {
    for (const node of Array.from(attributeList.childNodes)) {
      const element = node as Element;
      if (element.nodeType !== 1 || element.namespaceURI !== casNamespace) continue;
      attributes[element.localName as string] ??= (element.textContent ?? '').trim();
    }
  }
  return { user: name, attributes };
}

/** Validates service tickets against the CAS server's `serviceValidate` (protocol 2.0 and 3.0 answers). */
@injectable()
export class CasClient {
  readonly #used: Collection<UsedTicket>;

  constructor(
    @injectRef(kernelRefs.store) store: FeatureStore,
    @injectRef(kernelRefs.clock) private readonly clock: Clock,
    @injectRef(casConfig.ref) private readonly config: CasConfig,
  ) {
    this.#used = store.collection(usedTicketCollection);
  }

  async validate(server: string, service: string, ticket: string): Promise<TicketCheck> {
    if (!ticketPattern.test(ticket)) return { refused: 'malformed ticket' };
    const now = this.clock.nowSec();
    try {
      await this.#used.deleteMany({ at: { $lt: now - 86_400 } });
      await this.#used.insertOne({ _id: createHash('sha256').update(ticket).digest('hex'), at: now });
    } catch (err) {
      if ((err as { code?: string }).code === ErrorCodes.DuplicateKey) return { refused: 'ticket already used' };
      throw err;
    }
    const url = `${server}/serviceValidate?service=${encodeURIComponent(service)}&ticket=${encodeURIComponent(ticket)}`;
    let text: string;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(this.config.timeout_ms), redirect: 'error' });
      if (!res.ok) return { refused: `serviceValidate answered HTTP ${res.status}` };
      text = await res.text();
    } catch (err) {
      return { refused: `cannot reach ${server}/serviceValidate: ${(err as Error).message}` };
    }
    if (Buffer.byteLength(text) > maxAnswerBytes) return { refused: 'the serviceValidate answer is too large' };
    return parseServiceResponse(text);
  }
}
