import { number, object, string } from 'yup';

const attrsSchema = object({
  mail: string().optional(),
  firstname: string().optional(),
  lastname: string().optional(),
})
  .noUnknown('attrs maps only mail, firstname and lastname')
  .default(undefined)
  .optional();

/**
 * The directory record as posted (`cservice.ldapconfig`). `ldap_uri`, or the obsolete `host` and `port`, names the
 * directory. `admin_passwd` may be left out (or sent masked) to keep the stored one.
 */
export const ldapRecordInputSchema = object({
  id: string().optional().oneOf(['cservice.ldapconfig'], 'id must be cservice.ldapconfig'),
  _id: string().optional().oneOf(['cservice.ldapconfig'], '_id must be cservice.ldapconfig'),
  crecord_type: string().optional(),
  crecord_name: string().optional(),
  ldap_uri: string()
    .optional()
    .matches(/^ldaps?:\/\/[^\s/?#]+\/?$/i, 'ldap_uri must be ldap://host[:port] or ldaps://host[:port]'),
  host: string()
    .optional()
    .matches(/^[^\s/:?#]+$|^\[[0-9a-fA-F:.]+\]$/, 'host must be a host name or address'),
  port: number().optional().integer('port must be an integer').min(1, 'port must be from 1 to 65535').max(65535, 'port must be from 1 to 65535'),
  admin_dn: string().required('admin_dn is required').max(1024),
  admin_passwd: string().optional().max(1024),
  user_dn: string().required('user_dn is required').max(1024),
  ufilter: string()
    .required('ufilter is required')
    .max(1024)
    .test('ufilter-placeholder', 'ufilter must contain %s where the user name goes', (value) => value === undefined || value.includes('%s')),
  username_attr: string().optional().max(128),
  attrs: attrsSchema,
  default_role: string().required('default_role is required').max(255),
}).test('ldap-uri', 'ldap_uri (or the obsolete host) is required', (value) => Boolean(value?.ldap_uri || value?.host));

/** The record as answered: the password masked. */
export const ldapRecordSchema = object({
  _id: string().required(),
  id: string().required(),
  crecord_type: string().required(),
  crecord_name: string().required(),
  ldap_uri: string().required(),
  host: string().optional(),
  port: number().optional(),
  admin_dn: string().required(),
  admin_passwd: string().required().meta({ description: 'Always `********`: the password is stored encrypted and never shown' }),
  user_dn: string().required(),
  ufilter: string().required(),
  username_attr: string().optional(),
  attrs: object({ mail: string(), firstname: string(), lastname: string() }).optional(),
  default_role: string().required(),
});
