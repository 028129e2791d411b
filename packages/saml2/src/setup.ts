import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { boolean, mixed, object, string, type InferType } from 'yup';
import type { VigieError } from '@vigie/kernel';
import { validate } from '@vigie/input';

/** Where `vigie saml2 import` puts the setup, under the installation directory; what the server reads. */
export const saml2ConfigDir = join('etc', 'saml2');

export const bindings = {
  post: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST',
  redirect: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect',
} as const;

/** The paths of the spec, relative to `<service_url>`. */
export const saml2Paths = {
  metadata: '/auth/saml2/metadata/',
  acs: '/auth/saml2/acs/',
  sls: '/auth/saml2/sls/',
  login: '/auth/saml2/login/',
} as const;

/**
 * A service URL as python-saml accepted them (the spec says "fully qualified domain name"): http(s), and a host
 * that is a dotted domain name, an IP address or `localhost`.
 */
function serviceUrl(value: string | undefined): boolean {
  if (value === undefined) return true;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    return url.hostname === 'localhost' || url.hostname.includes('.') || url.hostname.startsWith('[');
  } catch {
    return false;
  }
}

const endpoint = (code: string) =>
  object({
    url: string().required(`${code}`).test(code, code, serviceUrl),
    binding: string().optional(),
  });

const settingsSchema = object({
  strict: boolean().optional(),
  debug: boolean().optional(),
  sp: object({
    entityId: string().required('sp_entityId_not_found').test('sp_entityId_invalid', 'sp_entityId_invalid', serviceUrl),
    assertionConsumerService: endpoint('sp_acs_url_invalid').required('sp_acs_not_found'),
    singleLogoutService: endpoint('sp_sls_url_invalid').optional().default(undefined),
    NameIDFormat: string().optional(),
    x509cert: string().optional(),
    privateKey: string().optional(),
  }).required('sp_not_found'),
  idp: object({
    entityId: string().required('idp_entityId_not_found'),
    singleSignOnService: endpoint('idp_sso_url_invalid').required('idp_sso_not_found'),
    singleLogoutService: endpoint('idp_slo_url_invalid').optional().default(undefined),
    x509cert: string().required('idp_cert_not_found'),
  }).required('idp_not_found'),
});

const advancedSchema = object({
  security: object({
    nameIdEncrypted: boolean().optional(),
    authnRequestsSigned: boolean().optional(),
    logoutRequestSigned: boolean().optional(),
    logoutResponseSigned: boolean().optional(),
    signMetadata: boolean().optional(),
    wantMessagesSigned: boolean().optional(),
    wantAssertionsSigned: boolean().optional(),
    wantNameId: boolean().optional(),
    wantNameIdEncrypted: boolean().optional(),
    wantAssertionsEncrypted: boolean().optional(),
    signatureAlgorithm: string().optional(),
    digestAlgorithm: string().optional(),
  })
    .optional()
    .default({}),
  contactPerson: mixed().optional(),
  organization: mixed().optional(),
});

const nullableName = string().nullable().optional().default(null);
const mappingSchema = object({ userid: nullableName, firstname: nullableName, lastname: nullableName, mail: nullableName });

export type Saml2Settings = InferType<typeof settingsSchema>;
export type Saml2AdvancedSettings = InferType<typeof advancedSchema>;
export type Saml2UserMapping = InferType<typeof mappingSchema>;

/** Everything the server needs, read from a setup directory (the spec's layout) or the imported copy. */
export interface Saml2Setup {
  settings: Saml2Settings;
  advanced: Saml2AdvancedSettings;
  mapping: Saml2UserMapping;
  /** PEM of the service's certificate and key (`certs/sp.crt`, `certs/sp.key`, or the settings' values). */
  spCert: string | null;
  spKey: string | null;
}

/** Fixed names of the spec's layout; the user-mapping file is `user_mapping.json`, or the one other `.json` file. */
const fixedFiles = ['settings.json', 'advanced_settings.json'];

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`${path}: ${(err as Error).message}`);
  }
}

/** The user-mapping file, or null when there is none (the defaults apply, as when every key is null). */
function mappingFile(dir: string): string | null {
  if (existsSync(join(dir, 'user_mapping.json'))) return join(dir, 'user_mapping.json');
  const others = readdirSync(dir).filter((name) => name.endsWith('.json') && !fixedFiles.includes(name));
  if (others.length > 1) throw new Error(`${dir}: several candidate user-mapping files (${others.join(', ')}); name the one to use user_mapping.json`);
  return others.length === 1 ? join(dir, others[0] as string) : null;
}

/** PEM text from the settings (bare base64 allowed) or a file; null when neither has it. */
function pem(inline: string | undefined, file: string, label: 'CERTIFICATE' | 'PRIVATE KEY'): string | null {
  const text = inline?.trim() ? inline.trim() : existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
  if (text === '') return null;
  if (text.includes('-----BEGIN')) return `${text}\n`;
  const body = text.replace(/\s+/g, '');
  return `-----BEGIN ${label}-----\n${body.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END ${label}-----\n`;
}

/** Reads and checks a setup directory; every problem is reported with the file it comes from. */
export function readSaml2Setup(dir: string): Saml2Setup {
  if (!existsSync(join(dir, 'settings.json'))) throw new Error(`${dir}: no settings.json`);
  let settings: Saml2Settings;
  try {
    settings = validate(settingsSchema, readJson(join(dir, 'settings.json')));
  } catch (err) {
    // python-saml's wording, which the spec's troubleshooting section quotes.
    const details = (err as VigieError).details;
    if (!details) throw err;
    throw new Error(`${join(dir, 'settings.json')}: invalid dict settings: ${details.join(',')}`);
  }
  const advanced = existsSync(join(dir, 'advanced_settings.json')) ? validate(advancedSchema, readJson(join(dir, 'advanced_settings.json'))) : validate(advancedSchema, {});
  const mappingPath = mappingFile(dir);
  const mapping = validate(mappingSchema, mappingPath === null ? {} : readJson(mappingPath));
  const spCert = pem(settings.sp.x509cert, join(dir, 'certs', 'sp.crt'), 'CERTIFICATE');
  const spKey = pem(settings.sp.privateKey, join(dir, 'certs', 'sp.key'), 'PRIVATE KEY');
  const security = advanced.security;
  if ((security.authnRequestsSigned || security.logoutRequestSigned || security.logoutResponseSigned || security.signMetadata) && !spKey) {
    throw new Error(`${dir}: the security settings sign requests or metadata, but there is no service key (certs/sp.key or sp.privateKey)`);
  }
  if ((security.wantAssertionsEncrypted || security.wantNameIdEncrypted) && !spKey) {
    throw new Error(`${dir}: encrypted assertions need the service key (certs/sp.key or sp.privateKey)`);
  }
  return { settings, advanced, mapping, spCert, spKey };
}

/**
 * `vigie saml2 import <dir>`: checks the setup directory, then replaces `<install>/etc/saml2` with a copy of it
 * (written beside, then renamed over the old one), so a run either fully applies or changes nothing. Key files are
 * made readable by their owner only. Returns the destination.
 */
export function importSaml2Setup(sourceDir: string, installDir: string): string {
  readSaml2Setup(sourceDir);
  const destination = join(installDir, saml2ConfigDir);
  mkdirSync(dirname(destination), { recursive: true });
  const staging = `${destination}.importing`;
  const previous = `${destination}.previous`;
  rmSync(staging, { recursive: true, force: true });
  rmSync(previous, { recursive: true, force: true });
  cpSync(sourceDir, staging, { recursive: true });
  for (const secret of ['certs/sp.key', 'secret_key']) {
    if (existsSync(join(staging, secret))) chmodSync(join(staging, secret), 0o600);
  }
  writeFileSync(join(staging, 'IMPORTED'), `imported from ${sourceDir} at ${new Date().toISOString()}\n`);
  if (existsSync(destination)) renameSync(destination, previous);
  renameSync(staging, destination);
  rmSync(previous, { recursive: true, force: true });
  return destination;
}

/** The spec's signature algorithm URIs, as node-saml names them. */
export function algorithmName(uri: string | undefined): 'sha1' | 'sha256' | 'sha512' | undefined {
  if (!uri) return undefined;
  const match = /(sha1|sha256|sha512)$/i.exec(uri);
  return match ? (match[1]?.toLowerCase() as 'sha1' | 'sha256' | 'sha512') : undefined;
}
