import { describe, expect, it } from 'vitest';
import { entityIdOf } from './pipeline.js';

const base = { connector: 'nagios', connector_name: 'nagios-1', component: 'host', resource: 'disk' };

describe('entityIdOf', () => {
  it('names a resource resource/component, a component by itself, a connector connector/connector_name', () => {
    expect(entityIdOf({ ...base, source_type: 'resource' })).toBe('disk/host');
    expect(entityIdOf({ ...base, source_type: 'component' })).toBe('host');
    expect(entityIdOf({ ...base, source_type: 'connector' })).toBe('nagios/nagios-1');
  });

  it('names meta-alarm and service events by their component', () => {
    expect(entityIdOf({ ...base, source_type: 'metaalarm', component: 'meta-1' })).toBe('meta-1');
    expect(entityIdOf({ ...base, source_type: 'service', component: 'svc' })).toBe('svc');
  });
});
