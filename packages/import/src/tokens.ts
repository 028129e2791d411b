/** tsyringe tokens of what the import feature receives from its dependencies. */
export const ImportTokens = {
  /** The context graph's `entityRepository` export. */
  EntityRepository: Symbol.for('import.EntityRepository'),
} as const;
