/** One broken rule, said so a failing test names the span or metric, the attribute and the rule. */
export interface Violation {
  /** e.g. `span "chat gpt-4o-mini" [span.gen_ai.inference.client]` or `metric gen_ai.client.token.usage {…}`. */
  where: string;
  attribute?: string;
  rule: string;
}

function formatViolation(violation: Violation): string {
  return [violation.where, violation.attribute, violation.rule].filter(Boolean).join(' · ');
}

/** Sorted, de-duplicated lines: many spans of one kind breaking one rule read as one line each. */
export function formatViolations(violations: readonly Violation[]): string[] {
  return [...new Set(violations.map(formatViolation))].sort();
}
