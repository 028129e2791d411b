import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KeyPair } from './idp.js';

/** Writes a setup directory in the spec's layout for a service at `serviceUrl` and the test IdP. */
export function writeSetupDir(options: {
  serviceUrl: string;
  idp: { url: string; entityId: string; keys: KeyPair };
  sp: KeyPair;
  security?: Record<string, unknown>;
  mapping?: Record<string, string | null>;
  settings?: (settings: Record<string, unknown>) => void;
}): string {
  const dir = mkdtempSync(join(tmpdir(), 'vigie-saml2-setup-'));
  mkdirSync(join(dir, 'certs'));
  writeFileSync(join(dir, 'certs', 'sp.crt'), options.sp.cert);
  writeFileSync(join(dir, 'certs', 'sp.key'), options.sp.key);
  const settings: Record<string, unknown> = {
    strict: true,
    debug: false,
    sp: {
      entityId: `${options.serviceUrl}/auth/saml2/metadata/`,
      assertionConsumerService: { url: `${options.serviceUrl}/auth/saml2/acs/`, binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST' },
      singleLogoutService: { url: `${options.serviceUrl}/auth/saml2/sls/`, binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect' },
      NameIDFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:unspecified',
      x509cert: '',
      privateKey: '',
    },
    idp: {
      entityId: options.idp.entityId,
      singleSignOnService: { url: `${options.idp.url}/sso`, binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect' },
      singleLogoutService: { url: `${options.idp.url}/slo`, binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect' },
      x509cert: options.idp.keys.bare,
    },
  };
  options.settings?.(settings);
  writeFileSync(join(dir, 'settings.json'), JSON.stringify(settings, null, 2));
  writeFileSync(
    join(dir, 'advanced_settings.json'),
    JSON.stringify({
      security: {
        nameIdEncrypted: false,
        authnRequestsSigned: false,
        logoutRequestSigned: false,
        logoutResponseSigned: false,
        signMetadata: false,
        wantMessagesSigned: false,
        wantAssertionsSigned: true,
        wantNameId: true,
        wantNameIdEncrypted: false,
        wantAssertionsEncrypted: false,
        signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
        digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
        ...options.security,
      },
      contactPerson: { technical: { givenName: 'Ops', emailAddress: 'ops@example.org' }, support: { givenName: 'Desk', emailAddress: 'desk@example.org' } },
      organization: { 'en-US': { name: 'example', displayname: 'Example', url: 'https://example.org' } },
    }),
  );
  writeFileSync(join(dir, 'user_mapping.json'), JSON.stringify(options.mapping ?? { userid: null, firstname: 'firstName', lastname: 'lastName', mail: 'email' }));
  writeFileSync(join(dir, 'conf_path'), '/opt/canopsis/etc/saml2\n');
  writeFileSync(join(dir, 'secret_key'), 'not used: encryption is off\n');
  return dir;
}

export function removeDir(dir: string | undefined): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
}
