import { describe, expect, it } from 'vitest';
import { MalformedPathError, RouteTable, type RouteMatch } from './route-table.js';

/** A match as plain data: a miss works out its allowed methods when they are read. */
function plain<T>(match: RouteMatch<T>): RouteMatch<T> {
  return match.found ? match : { found: false, allowed: match.allowed };
}

function table(): RouteTable<string> {
  const t = new RouteTable<string>();
  t.add('GET', '/api/v2/broadcast-message/active', 'active');
  t.add('GET', '/api/v2/broadcast-message/:id', 'one-message');
  t.add('GET', '/api/v2/heartbeat/', 'heartbeats');
  t.add('POST', '/api/v2/heartbeat', 'create-heartbeat');
  t.add('GET', '/api/v2/pbehavior_byeid/*eid', 'by-eid');
  t.add('DELETE', '/api/v2/pbehavior_byeid/*eid', 'delete-by-eid');
  t.add('GET', '/', 'root');
  return t;
}

describe('RouteTable', () => {
  it('prefers exact paths over parameters and ignores trailing slashes', () => {
    const t = table();
    expect(t.match('GET', '/api/v2/broadcast-message/active')).toEqual({ found: true, target: 'active', params: {} });
    expect(t.match('GET', '/api/v2/broadcast-message/abc/')).toEqual({ found: true, target: 'one-message', params: { id: 'abc' } });
    expect(t.match('GET', '/api/v2/heartbeat')).toMatchObject({ target: 'heartbeats' });
    expect(t.match('POST', '/api/v2/heartbeat/')).toMatchObject({ target: 'create-heartbeat' });
    expect(t.match('GET', '/')).toMatchObject({ target: 'root' });
  });

  it('captures the rest of the path, slashes and encoded slashes included', () => {
    const t = table();
    expect(t.match('GET', '/api/v2/pbehavior_byeid/disk/host')).toMatchObject({ params: { eid: 'disk/host' } });
    expect(t.match('GET', '/api/v2/pbehavior_byeid/disk%2Fhost%20a')).toMatchObject({ params: { eid: 'disk/host a' } });
    expect(plain(t.match('GET', '/api/v2/pbehavior_byeid/'))).toEqual({ found: false, allowed: [] });
  });

  it('does not match a parameter on an empty segment or extra segments', () => {
    const t = table();
    expect(plain(t.match('GET', '/api/v2/broadcast-message/a/b'))).toEqual({ found: false, allowed: [] });
  });

  it('lists the methods a known path allows', () => {
    const t = table();
    expect(plain(t.match('PUT', '/api/v2/heartbeat'))).toEqual({ found: false, allowed: ['GET', 'HEAD', 'POST'] });
    expect(plain(t.match('POST', '/api/v2/pbehavior_byeid/x'))).toEqual({ found: false, allowed: ['DELETE', 'GET', 'HEAD'] });
    expect(t.match('HEAD', '/api/v2/heartbeat')).toMatchObject({ target: 'heartbeats' });
  });

  it('refuses malformed percent-encoding in parameters', () => {
    expect(() => table().match('GET', '/api/v2/broadcast-message/%E0%A4%A')).toThrow(MalformedPathError);
  });

  it('tries parameterised routes in declaration order, whether their first segments are literal or not', () => {
    const t = new RouteTable<string>();
    t.add('GET', '/api/:version/items/:id', 'any-version');
    t.add('GET', '/api/v2/items/:id', 'v2-items');
    t.add('GET', '/api/v2/things/:id', 'v2-things');
    t.add('GET', '/:any', 'one-segment');
    t.add('PUT', '/api/v2/items/:id', 'put-item');
    expect(t.match('GET', '/api/v2/items/7')).toEqual({ found: true, target: 'any-version', params: { version: 'v2', id: '7' } });
    expect(t.match('GET', '/api/v2/things/7')).toEqual({ found: true, target: 'v2-things', params: { id: '7' } });
    expect(t.match('GET', '/top')).toEqual({ found: true, target: 'one-segment', params: { any: 'top' } });
    t.add('GET', '/api/v3/items/:id/:part', 'v3-parts');
    expect(t.match('GET', '/api/v3/items/7/a')).toEqual({ found: true, target: 'v3-parts', params: { id: '7', part: 'a' } });
    expect(plain(t.match('POST', '/api/v2/items/7'))).toEqual({ found: false, allowed: ['GET', 'HEAD', 'PUT'] });
    expect(plain(t.match('POST', '/api/v2/nothing/7'))).toEqual({ found: false, allowed: [] });
    expect(() => t.match('GET', '/api/%E0%A4%A/items/7')).toThrow(MalformedPathError);
  });

  it('tries routes with a parameter among their first segments by their first segment, in declaration order', () => {
    const t = new RouteTable<string>();
    t.add('GET', '/admin/:resource', 'admin');
    t.add('GET', '/:any/x', 'any-x');
    t.add('GET', '/console/assets/:name', 'asset');
    t.add('GET', '/api/v2/items/:id', 'item');
    expect(t.match('GET', '/admin/users')).toEqual({ found: true, target: 'admin', params: { resource: 'users' } });
    expect(t.match('GET', '/admin/x')).toEqual({ found: true, target: 'admin', params: { resource: 'x' } });
    expect(t.match('GET', '/console/x')).toEqual({ found: true, target: 'any-x', params: { any: 'console' } });
    expect(t.match('GET', '/console/assets/a.js')).toEqual({ found: true, target: 'asset', params: { name: 'a.js' } });
    expect(t.match('GET', '/api/v2/items/7')).toMatchObject({ target: 'item' });
    expect(t.match('GET', '/api/x')).toEqual({ found: true, target: 'any-x', params: { any: 'api' } });
    expect(plain(t.match('GET', '/api/v2/legacy/items/1'))).toEqual({ found: false, allowed: [] });
    expect(plain(t.match('POST', '/admin/users'))).toEqual({ found: false, allowed: ['GET', 'HEAD'] });
  });

});
