import { describe, expect, it } from 'vitest';
import { heartbeatId } from './heartbeat-id.js';

describe('heartbeatId', () => {
  it('hashes the sorted keys each followed by its value (the reference example)', () => {
    expect(heartbeatId({ connector: 'c2', connector_name: 'connector2' })).toBe('3d071cb49acce44040b35ed8c6714ef1');
  });

  it('does not depend on the order the keys were sent in', () => {
    expect(heartbeatId({ connector_name: 'connector2', connector: 'c2' })).toBe(heartbeatId({ connector: 'c2', connector_name: 'connector2' }));
  });

  it('tells different patterns apart', () => {
    expect(heartbeatId({ connector: 'c1' })).not.toBe(heartbeatId({ connector: 'c2' }));
  });
});
