import { describe, expect, it } from 'vitest';
import { listRequest } from './list-query.js';

describe('listRequest', () => {
  it('defaults to everything, by _id, without limit', () => {
    expect(listRequest({})).toEqual({ filter: {}, sort: { _id: 1 }, skip: 0 });
  });

  it('ORs an escaped, case-insensitive search over the chosen fields', () => {
    expect(listRequest({ search: 'a.b', search_fields: ' name , infos.value ,' }).filter).toEqual({
      $or: [{ name: { $regex: 'a\\.b', $options: 'i' } }, { 'infos.value': { $regex: 'a\\.b', $options: 'i' } }],
    });
  });

  it('prefers offset to its alias skip, and reads limit 0 as no limit', () => {
    expect(listRequest({ offset: '4', skip: '2', limit: '0' })).toMatchObject({ skip: 4 });
    expect(listRequest({ skip: '2', limit: '3' })).toMatchObject({ skip: 2, limit: 3 });
  });

  it('sorts by a known key with _id breaking ties, else by _id', () => {
    expect(listRequest({ sort_key: 'creation_date', sort_dir: 'DESC' }).sort).toEqual({ creation_date: -1, _id: 1 });
    expect(listRequest({ sort_key: 'infos', sort_dir: 'DESC' }).sort).toEqual({ _id: -1 });
  });
});
