/** tsyringe tokens of what the AMQP ingestion feature receives from the events feature. */
export const EventsTokens = {
  /** The events feature's `eventIntake` export. */
  EventIntake: Symbol.for('events-amqp.EventIntake'),
} as const;
