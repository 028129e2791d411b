import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as validator from '@authenio/samlify-xmllint-wasm';
import * as samlify from 'samlify';

samlify.setSchemaValidator(validator);

/** A self-signed certificate and its key, made with openssl for this test run. */
export interface KeyPair {
  cert: string;
  key: string;
  /** The certificate's base64 body, without header, footer or whitespace (the spec's `x509cert` form). */
  bare: string;
}

export function makeKeyPair(commonName: string): KeyPair {
  const dir = mkdtempSync(join(tmpdir(), 'vigie-saml-cert-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', `/CN=${commonName}`, '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    const cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
    return { cert, key: readFileSync(join(dir, 'key.pem'), 'utf8'), bare: cert.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface AssertionOptions {
  /** Empty: no NameID value. */
  nameId: string;
  attributes?: Record<string, string>;
  inResponseTo?: string;
  /** Seconds from now at which the assertion stops being valid (negative: already expired). */
  validForSeconds?: number;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface TestIdp {
  url: string;
  entityId: string;
  keys: KeyPair;
  /** Reads the service provider's metadata (from Vigie's metadata route) once Vigie runs. */
  trust(spMetadata: string): void;
  /** A base64 SAMLResponse for the ACS, signed as the service provider's metadata asks; `signer` forges with other keys. */
  response(options: AssertionOptions, signer?: KeyPair): Promise<string>;
  /** The same response unsigned (built by hand). */
  unsignedResponse(options: AssertionOptions): string;
  /** A LogoutRequest for a NameID, as the URL (HTTP-Redirect binding) of the service provider's SLS; signed unless told. */
  logoutUrl(nameId: string, options?: { signed?: boolean }): Promise<string>;
  /** Login requests received at `/sso`. */
  requests: { id: string; relayState: string }[];
  close(): Promise<void>;
}

/**
 * A SAML2 identity provider built on samlify (schema-checked with xmllint compiled to WebAssembly), serving:
 * `GET /sso` (HTTP-Redirect AuthnRequest) → its login form, auto-submitted for `autoLogin`; `POST /sso/login` →
 * a page that posts the signed response to the service provider's ACS with the RelayState.
 */
export async function startIdp(options: { users: Record<string, { password: string; attributes: Record<string, string> }>; autoLogin?: string }): Promise<TestIdp> {
  const keys = makeKeyPair('test-idp');
  let sp: ReturnType<typeof samlify.ServiceProvider> | undefined;
  /** The service provider's HTTP-POST assertion consumer service, read from its metadata. */
  let acs = '';
  let spMetadata: string | undefined;
  const requests: TestIdp['requests'] = [];
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const entityId = `${url}/metadata`;
  const identityProvider = (pair: KeyPair) =>
    samlify.IdentityProvider({
      entityID: entityId,
      signingCert: pair.cert,
      privateKey: pair.key,
      nameIDFormat: ['urn:oasis:names:tc:SAML:2.0:nameid-format:unspecified'],
      singleSignOnService: [{ Binding: samlify.Constants.namespace.binding.redirect, Location: `${url}/sso` }],
      singleLogoutService: [{ Binding: samlify.Constants.namespace.binding.redirect, Location: `${url}/slo` }],
      requestSignatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    });
  const idp = identityProvider(keys);

  const xml = (o: AssertionOptions): string => {
    if (!sp) throw new Error('the test IdP has no service provider metadata yet');
    const now = new Date();
    const until = new Date(now.getTime() + (o.validForSeconds ?? 300) * 1000).toISOString();
    const issued = (o.validForSeconds ?? 300) < 0 ? new Date(now.getTime() + ((o.validForSeconds as number) - 300) * 1000).toISOString() : now.toISOString();
    const audience = sp.entityMeta.getEntityID();
    const inResponseTo = o.inResponseTo ? ` InResponseTo="${escapeXml(o.inResponseTo)}"` : '';
    const attributes = Object.entries(o.attributes ?? {})
      .map(([name, value]) => `<saml:Attribute Name="${escapeXml(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic"><saml:AttributeValue xsi:type="xs:string">${escapeXml(value)}</saml:AttributeValue></saml:Attribute>`)
      .join('');
    return (
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_${randomUUID()}" Version="2.0" IssueInstant="${issued}" Destination="${escapeXml(acs)}"${inResponseTo}>` +
      `<saml:Issuer>${escapeXml(entityId)}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
      `<saml:Assertion xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_${randomUUID()}" Version="2.0" IssueInstant="${issued}">` +
      `<saml:Issuer>${escapeXml(entityId)}</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:unspecified">${escapeXml(o.nameId)}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${until}" Recipient="${escapeXml(acs)}"${inResponseTo}/></saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${issued}" NotOnOrAfter="${until}"><saml:AudienceRestriction><saml:Audience>${escapeXml(audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${issued}" SessionIndex="_${randomUUID()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
      (attributes === '' ? '' : `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>`) +
      `</saml:Assertion></samlp:Response>`
    );
  };

  const response = async (o: AssertionOptions, signer?: KeyPair): Promise<string> => {
    if (!sp) throw new Error('the test IdP has no service provider metadata yet');
    const issuer = signer ? identityProvider(signer) : idp;
    const built = await issuer.createLoginResponse(sp, { extract: { request: { id: o.inResponseTo ?? '' } } } as never, 'post', {}, {
      customTagReplacement: () => ({ id: '', context: xml(o) }),
    });
    return built.context;
  };

  const page = (title: string, body: string) => `<!DOCTYPE html><html><head><title>${title}</title></head><body>${body}</body></html>`;

  server.on('request', (req, res) => {
    const requestUrl = new URL(req.url ?? '/', url);
    void (async () => {
      if (req.method === 'GET' && requestUrl.pathname === '/sso') {
        if (!sp) throw new Error('no service provider');
        const query = Object.fromEntries(requestUrl.searchParams);
        const parsed = await idp.parseLoginRequest(sp, 'redirect', { query, octetString: requestUrl.search.slice(1) } as never);
        const id = (parsed.extract as { request: { id: string } }).request.id;
        requests.push({ id, relayState: query.RelayState ?? '' });
        const auto = options.autoLogin;
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          page(
            'Test IdP login',
            `<h1>Test identity provider</h1><form method="post" action="/sso/login"><input type="hidden" name="request" value="${escapeXml(id)}">` +
              `<input type="hidden" name="RelayState" value="${escapeXml(query.RelayState ?? '')}"><input name="username" value="${escapeXml(auto ?? '')}">` +
              `<input name="password" type="password" value="${escapeXml(auto ? (options.users[auto]?.password ?? '') : '')}"><button>Log in</button></form>` +
              (auto ? '<script>document.forms[0].submit()</script>' : ''),
          ),
        );
        return;
      }
      if (req.method === 'POST' && requestUrl.pathname === '/sso/login') {
        let raw = '';
        for await (const chunk of req) raw += (chunk as Buffer).toString('utf8');
        const form = new URLSearchParams(raw);
        const user = options.users[form.get('username') ?? ''];
        if (!user || user.password !== form.get('password') || !sp) {
          res.writeHead(401, { 'content-type': 'text/plain' });
          res.end('wrong credentials');
          return;
        }
        const samlResponse = await response({ nameId: form.get('username') as string, attributes: user.attributes, inResponseTo: form.get('request') ?? undefined });
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          page(
            'Signing in…',
            `<form method="post" action="${escapeXml(acs)}"><input type="hidden" name="SAMLResponse" value="${escapeXml(samlResponse)}">` +
              `<input type="hidden" name="RelayState" value="${escapeXml(form.get('RelayState') ?? '')}"><button>Continue</button></form><script>document.forms[0].submit()</script>`,
          ),
        );
        return;
      }
      res.writeHead(404);
      res.end();
    })().catch((err: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(err));
    });
  });

  return {
    url,
    entityId,
    keys,
    requests,
    trust: (metadata) => {
      sp = samlify.ServiceProvider({ metadata });
      spMetadata = metadata;
      acs = /<AssertionConsumerService[^>]*Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"[^>]*Location="([^"]+)"/.exec(metadata)?.[1] ?? '';
    },
    response,
    unsignedResponse: (o) => Buffer.from(xml(o)).toString('base64'),
    logoutUrl: async (nameId, o = {}) => {
      if (!spMetadata) throw new Error('the test IdP has no service provider metadata yet');
      const target = samlify.ServiceProvider({ metadata: spMetadata, wantLogoutRequestSigned: o.signed !== false });
      return (await idp.createLogoutRequest(target, 'redirect', { logoutNameID: nameId } as never)).context;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
