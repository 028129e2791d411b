/** The extension point LDAP, CAS and SAML2 packages contribute their providers to. */
export const authProvidersPoint = 'auth.providers';
