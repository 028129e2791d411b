/** tsyringe tokens of what the CAS feature imports from the auth feature. */
export const CasTokens = {
  UserAdministration: Symbol.for('auth-cas.UserAdministration'),
  ProviderChain: Symbol.for('auth-cas.ProviderChain'),
} as const;
