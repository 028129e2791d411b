import { array, boolean, object, string, type InferType } from 'yup';
import { baseUrlField } from '@vigie/auth';

/** ID-token signature algorithms Vigie verifies: asymmetric ones only (the provider's published keys). */
export const signingAlgorithms = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'] as const;

/** Where each user field comes from when the record does not say: the standard OpenID Connect claims. */
export const defaultClaims = { name: 'preferred_username', mail: 'email', firstname: 'given_name', lastname: 'family_name', roles: '' };

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Tokens travel from the provider: plain http is accepted only from this machine (a provider beside Vigie, or tests). */
function httpsUnlessLoopback(value: string | undefined): boolean {
  if (value === undefined || !URL.canParse(value)) return true; // baseUrlField refuses what is not a URL
  const url = new URL(value);
  return url.protocol === 'https:' || loopbackHosts.has(url.hostname);
}

const claimName = (field: string) =>
  string()
    .optional()
    .max(255, `claims.${field} must be at most 255 characters`)
    .matches(/^[^\s]*$/, `claims.${field} must be a claim name (no spaces)`);

/** A space-separated scope list (RFC 6749 §3.3 characters) that includes `openid`. */
const scopePattern = /^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/;

/**
 * The OpenID Connect record as posted (`cservice.oidcconfig`). `client_secret` may be left out (or sent masked) to
 * keep the stored one; an empty one makes Vigie a public client (PKCE only).
 */
export const oidcRecordInputSchema = object({
  _id: string().optional().oneOf(['cservice.oidcconfig'], '_id must be cservice.oidcconfig'),
  id: string().optional().oneOf(['cservice.oidcconfig'], 'id must be cservice.oidcconfig'),
  crecord_type: string().optional(),
  crecord_name: string().optional(),
  enable: boolean().optional(),
  issuer: baseUrlField('issuer')
    .required('issuer is required')
    .test('issuer-https', 'issuer must be an https:// URL (http:// only on a loopback address)', httpsUnlessLoopback),
  client_id: string().required('client_id is required').max(255, 'client_id must be at most 255 characters'),
  client_secret: string().optional().max(1024, 'client_secret must be at most 1024 characters'),
  service: baseUrlField('service').required('service is required'),
  scopes: string()
    .optional()
    .max(1024, 'scopes must be at most 1024 characters')
    .matches(scopePattern, 'scopes must be scope names separated by single spaces')
    .test('scopes-openid', 'scopes must include openid', (value) => value === undefined || value.split(' ').includes('openid')),
  default_role: string().required('default_role is required').max(255),
  title: string().optional().max(255),
  claims: object({
    name: claimName('name').min(1, 'claims.name must name a claim (the user name comes from it)'),
    mail: claimName('mail'),
    firstname: claimName('firstname'),
    lastname: claimName('lastname'),
    roles: claimName('roles'),
  })
    .noUnknown('claims maps only name, mail, firstname, lastname and roles')
    .default(undefined)
    .optional(),
  role_map: array(
    object({
      value: string().required('role_map[].value is required').max(255, 'role_map[].value must be at most 255 characters'),
      role: string().required('role_map[].role is required').max(255, 'role_map[].role must be at most 255 characters'),
    }).noUnknown('role_map entries have only value and role'),
  )
    .optional()
    .max(100, 'role_map has at most 100 entries'),
  signing_alg: string()
    .optional()
    .oneOf([...signingAlgorithms], `signing_alg must be one of ${signingAlgorithms.join(', ')}`),
});

/** The record as answered: the client secret masked. */
export const oidcRecordSchema = object({
  _id: string().required(),
  id: string().required(),
  crecord_type: string().required(),
  crecord_name: string().required(),
  enable: boolean().required(),
  issuer: string().required().meta({ description: 'The provider’s issuer URL; its configuration is read from `<issuer>/.well-known/openid-configuration`' }),
  client_id: string().required(),
  client_secret: string()
    .defined()
    .meta({ description: '`********` when a secret is stored (it is encrypted and never shown), empty for a public client' }),
  service: string().required().meta({ description: "Vigie's external base URL; the redirect URI is `<service>/auth/oidc/callback`" }),
  scopes: string().required(),
  default_role: string().required(),
  title: string().required().meta({ description: 'Label of the button on the login page' }),
  claims: object({
    name: string().required(),
    mail: string().defined(),
    firstname: string().defined(),
    lastname: string().defined(),
    roles: string().defined(),
  })
    .required()
    .meta({ description: 'Claim giving each user field (a dotted path reaches into objects, e.g. `realm_access.roles`); empty: not read' }),
  role_map: array(object({ value: string().required(), role: string().required() }))
    .required()
    .meta({ description: 'Vigie role for each value of the roles claim, in order of preference' }),
  signing_alg: string().required(),
});

export type OidcRecordOutput = InferType<typeof oidcRecordSchema>;
export type OidcRecordInput = InferType<typeof oidcRecordInputSchema>;
