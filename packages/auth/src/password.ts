import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

// scrypt parameters, recorded in each hash so they can change later. N = 2^cost; 2^15 costs about 30–90 ms per hash.
export const defaultPasswordHashCost = 15;
const r = 8;
const p = 1;
const keyLength = 32;

function derive(password: string, salt: Buffer, n: number, rr: number, pp: number, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, length, { N: n, r: rr, p: pp, maxmem: 128 * n * rr * 2 }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** `scrypt$N$r$p$<salt b64>$<hash b64>`, with N = 2^`cost`. */
export async function hashPassword(password: string, cost = defaultPasswordHashCost): Promise<string> {
  const salt = randomBytes(16);
  const n = 2 ** cost;
  const hash = await derive(password, salt, n, r, p, keyLength);
  return ['scrypt', n, r, p, salt.toString('base64'), hash.toString('base64')].join('$');
}

/** Timing-safe check of a password against a stored hash; false for malformed hashes. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, rr, pp, salt, hash] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), Number(n), Number(rr), Number(pp), expected.length);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * A hash of nothing at the cost new hashes get, verified against when a user is unknown so the response time does not
 * reveal it.
 */
export function decoyHash(cost: number): string {
  return `scrypt$${2 ** cost}$${r}$${p}$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(keyLength).toString('base64')}`;
}
