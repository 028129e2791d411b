import { boolean, object, string, type InferType } from 'yup';
import { featureConfig } from '@vigie/kernel';

/**
 * `[webservices]` of `etc/webserver.conf`, where the spec switches SAML2 on (`saml2 = 1`). Vigie adds the role
 * given to users at their first SAML2 login.
 */
export const saml2ConfigSchema = object({
  saml2: boolean().default(false),
  saml2_default_role: string().default('viewer'),
});

export type Saml2Config = InferType<typeof saml2ConfigSchema>;

/** The feature's configuration: schema, where it is read, and the typed reference its classes inject. */
export const saml2Config = featureConfig(saml2ConfigSchema, { section: 'webservices' });
