/** tsyringe tokens of what the event-filter feature receives from its dependencies. */
export const EventFilterTokens = {
  /** The context graph's `eventEntities` export. */
  EventEntities: Symbol.for('eventfilter.EventEntities'),
} as const;
