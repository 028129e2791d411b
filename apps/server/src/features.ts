import type { AnyFeature } from '@vigie/kernel';

/**
 * The feature packages this server can compose, by id. Loaded on demand so that a deployment listing fewer
 * features in `[server] features` does not load the others.
 */
export const availableFeatures: Readonly<Record<string, () => Promise<AnyFeature>>> = {
  auth: async () => (await import('@vigie/auth')).authFeature,
  'auth-ldap': async () => (await import('@vigie/auth-ldap')).authLdapFeature,
  'auth-cas': async () => (await import('@vigie/auth-cas')).authCasFeature,
  'auth-oidc': async () => (await import('@vigie/auth-oidc')).authOidcFeature,
  saml2: async () => (await import('@vigie/saml2')).saml2Feature,
  openapi: async () => (await import('@vigie/openapi')).openApiFeature,
  events: async () => (await import('@vigie/events')).eventsFeature,
  'events-amqp': async () => (await import('@vigie/events')).eventsAmqpFeature,
  'context-graph': async () => (await import('@vigie/context-graph')).contextGraphFeature,
  alarms: async () => (await import('@vigie/alarms')).alarmsFeature,
  import: async () => (await import('@vigie/import')).importFeature,
  'idle-rules': async () => (await import('@vigie/idle-rules')).idleRulesFeature,
  actions: async () => (await import('@vigie/actions')).actionsFeature,
  eventfilter: async () => (await import('@vigie/eventfilter')).eventFilterFeature,
  broadcast: async () => (await import('@vigie/broadcast')).broadcastFeature,
  heartbeats: async () => (await import('@vigie/heartbeats')).heartbeatsFeature,
  'alarm-filters': async () => (await import('@vigie/alarm-filters')).alarmFiltersFeature,
  'meta-alarms': async () => (await import('@vigie/meta-alarms')).metaAlarmsFeature,
  'dynamic-infos': async () => (await import('@vigie/dynamic-infos')).dynamicInfosFeature,
  webhooks: async () => (await import('@vigie/webhooks')).webhooksFeature,
  pbehaviors: async () => (await import('@vigie/pbehaviors')).pbehaviorsFeature,
  weather: async () => (await import('@vigie/weather')).weatherFeature,
  'live-updates': async () => (await import('@vigie/live-updates')).liveUpdatesFeature,
  exports: async () => (await import('@vigie/exports')).exportsFeature,
  healthcheck: async () => (await import('@vigie/healthcheck')).healthcheckFeature,
  metrics: async () => (await import('@vigie/metrics')).metricsFeature,
};

/** Every available feature, in a stable order: what the server runs when `[server] features` is not set. */
export const defaultFeatureIds = Object.keys(availableFeatures);
