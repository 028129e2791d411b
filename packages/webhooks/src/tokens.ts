/** tsyringe tokens of what the webhooks feature imports from the features it depends on. */
export const WebhooksTokens = {
  AlarmChanges: Symbol.for('webhooks.AlarmChanges'),
  AlarmReader: Symbol.for('webhooks.AlarmReader'),
  EntityRepository: Symbol.for('webhooks.EntityRepository'),
  ActivePbehaviors: Symbol.for('webhooks.ActivePbehaviors'),
} as const;
