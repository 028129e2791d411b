import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigFiles, envVariableFor, parseIni } from './ini.js';

describe('parseIni', () => {
  it('reads sections, comments, quotes and dotted keys verbatim', () => {
    const text = `; comment\n[auth]\nproviders = canopsis.auth.authkey, basic\n# another\n[webservices]\ncanopsis_cat.webcore.services.saml2 = 1\nquoted = "a = b"\n`;
    expect(parseIni(text)).toEqual({
      auth: { providers: 'canopsis.auth.authkey, basic' },
      webservices: { 'canopsis_cat.webcore.services.saml2': '1', quoted: 'a = b' },
    });
  });

  it('names the line of a malformed entry', () => {
    expect(() => parseIni('[a]\nnot a pair\n', 'x.conf')).toThrow('x.conf:2');
  });
});

describe('ConfigFiles', () => {
  it('merges files, environment variables and code overrides in that order', () => {
    const etc = mkdtempSync(join(tmpdir(), 'vigie-etc-'));
    mkdirSync(join(etc, 'healthcheck'));
    writeFileSync(join(etc, 'webserver.conf'), '[server]\nport = 9000\nhost = 0.0.0.0\n[auth]\nproviders = basic\n');
    writeFileSync(join(etc, 'healthcheck', 'manager.conf'), '[HEALTHCHECK]\ncheck_amqp_limit_size = 100000\n');
    const files = new ConfigFiles(etc, { VIGIE_SERVER__PORT: '9100', VIGIE_HEALTHCHECK__CHECK_AMQP_QUEUES: 'q1,q2' }, { 'webserver.conf': { server: { host: '127.0.0.1' } } });
    expect(files.section('webserver.conf', 'server')).toEqual({ port: '9100', host: '127.0.0.1' });
    expect(files.section('webserver.conf', 'auth')).toEqual({ providers: 'basic' });
    expect(files.section('healthcheck/manager.conf', 'HEALTHCHECK')).toEqual({ check_amqp_limit_size: '100000', check_amqp_queues: 'q1,q2' });
    expect(files.section('missing.conf', 'x')).toEqual({});
  });

  it('spells environment variables VIGIE_<SECTION>__<KEY>', () => {
    expect(envVariableFor('auth', 'providers')).toBe('VIGIE_AUTH__PROVIDERS');
    expect(envVariableFor('HEALTHCHECK', 'check_ts_db')).toBe('VIGIE_HEALTHCHECK__CHECK_TS_DB');
  });
});
