/** tsyringe tokens of what the SAML2 feature imports (from the kernel's root and the auth feature). */
export const Saml2Tokens = {
  InstallDir: Symbol.for('saml2.InstallDir'),
  UserAdministration: Symbol.for('saml2.UserAdministration'),
} as const;
