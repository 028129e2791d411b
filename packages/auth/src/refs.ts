import { eventRef, extensionPointRef, serviceRef } from '@vigie/kernel';
import type { IdentityRecords } from './identity-record-store.js';
import type { ProviderChain } from './provider-chain.js';
import type { AuthProvider } from './provider.js';
import type { Sessions } from './sessions.js';
import type { UserAdministration } from './user-administration.js';

/** The extension point LDAP, CAS and SAML2 packages contribute their providers to. */
export const authProvidersPoint = extensionPointRef<AuthProvider>('auth.providers');

/** Accounts: external sign-on, users and API keys; `forgetCredentials` after a directory change. */
export const userAdministrationRef = serviceRef<UserAdministration>('auth.userAdministration');
/** Opens a login session after a browser sign-on. */
export const sessionsRef = serviceRef<Sessions>('auth.sessions');
/** The identity providers' configuration records (the `object` collection this feature owns). */
export const identityRecordsRef = serviceRef<IdentityRecords>('auth.identityRecords');
/** The configured providers, in order. */
export const providerChainRef = serviceRef<ProviderChain>('auth.providerChain');

/** A user, password, role, state or API key changed: remembered credentials must be dropped. */
export const usersChangedEvent = eventRef<{ user: string }>('auth.users-changed');
