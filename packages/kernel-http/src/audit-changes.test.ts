import { describe, expect, it } from 'vitest';
import { maskSecrets } from './audit-changes.js';

describe('maskSecrets', () => {
  it('masks secret-looking keys at any depth, keeps the rest and empty secrets, and keeps numbers JSON cannot hold as text', () => {
    const body = {
      name: 'hook',
      request: { url: 'https://x', auth: { username: 'u', password: 'p' }, headers: { Authorization: 'Bearer t' } },
      list: [{ api_key: 'k', token: 't', secret: '' }],
      bind_password: 'b',
      huge: Number.POSITIVE_INFINITY,
      key: 'k',
      keys: ['a'],
    };
    expect(maskSecrets(body)).toEqual({
      name: 'hook',
      request: { url: 'https://x', auth: '********', headers: { Authorization: '********' } },
      list: [{ api_key: '********', token: '********', secret: '' }],
      bind_password: '********',
      huge: 'Infinity',
      key: '********',
      keys: ['a'],
    });
  });
});
