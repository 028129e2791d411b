export { saml2Feature } from './feature.js';
export { saml2ConfigSchema, type Saml2Config } from './config.js';
export { importSaml2Setup, readSaml2Setup, saml2ConfigDir, saml2Paths, type Saml2Setup } from './setup.js';
