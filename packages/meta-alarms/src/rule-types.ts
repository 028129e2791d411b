/** The rule types the correlation engine applies (REFERENCE §5.7). */
export const ruleTypes = ['relation', 'timebased', 'attribute', 'complex'] as const;

export type RuleType = (typeof ruleTypes)[number];

export function isRuleType(value: unknown): value is RuleType {
  return (ruleTypes as readonly unknown[]).includes(value);
}

/**
 * Which rule types accept each config key, in the order the original checks them: the first violation is the one
 * reported, whatever the body's order (REFERENCE §4.7). `total_entity_patterns` (4.2.94) comes last.
 */
export const configKeyRuleTypes: readonly (readonly [key: string, types: readonly RuleType[]])[] = [
  ['time_interval', ['timebased', 'complex']],
  ['attribute_patterns', ['attribute', 'complex']],
  ['threshold_count', ['complex']],
  ['alarm_patterns', ['attribute', 'complex']],
  ['entity_patterns', ['attribute', 'complex']],
  ['event_patterns', ['attribute', 'complex']],
  ['threshold_rate', ['complex']],
  ['total_entity_patterns', ['complex']],
];
