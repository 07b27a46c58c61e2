/**
 * Decisions and selections as span-event attributes: what was chosen, which rule chose it, and every
 * rule's verdict with what it looked at (keys, operators, thresholds). The values a rule read are
 * run data: their summaries are shown as their exported view holds them; redacted reads never are.
 */
import type { Attributes } from '@opentelemetry/api';
import type { FlowDecisionEvent, FlowSelectedEvent, RuleEvidence } from 'footprintjs';
import { exportedView } from '../../events/index.js';
import { boundString, safeJson, toList } from './bounded.js';

export function decisionAttributes(event: FlowDecisionEvent, capture: boolean): Attributes {
  const attributes: Attributes = { 'footprint.decision.chosen': boundString(event.chosen) };
  if (event.rationale) attributes['footprint.decision.rationale'] = boundString(event.rationale);
  const evidence = event.evidence;
  if (!evidence) return attributes;
  attributes['footprint.decision.branch'] = evidence.chosen;
  attributes['footprint.decision.default'] = evidence.default;
  const rule = evidence.rules.find((r) => r.matched);
  if (rule) {
    attributes['footprint.decision.rule_index'] = rule.ruleIndex;
    if (rule.label) attributes['footprint.decision.rule_label'] = boundString(rule.label);
  } else if (evidence.defaultLabel) {
    attributes['footprint.decision.rule_label'] = boundString(evidence.defaultLabel);
  }
  attributes['footprint.decision.rules'] = toList(evidence.rules.map((r) => describeRule(r, capture)));
  return attributes;
}

export function selectionAttributes(event: FlowSelectedEvent, capture: boolean): Attributes {
  const attributes: Attributes = {
    'footprint.selection.selected': toList(event.selected),
    'footprint.selection.total': event.total,
  };
  const evidence = event.evidence;
  if (!evidence) return attributes;
  attributes['footprint.selection.branches'] = toList(evidence.selected);
  attributes['footprint.selection.rules'] = toList(evidence.rules.map((r) => describeRule(r, capture)));
  return attributes;
}

/** One rule as a line: '#0 again matched "more" [n lt 3 -> 1]'. */
function describeRule(rule: RuleEvidence, capture: boolean): string {
  const label = rule.label ? ` "${rule.label}"` : '';
  const verdict = rule.matchError ? `error: ${rule.matchError}` : rule.matched ? 'matched' : 'not matched';
  const looked =
    rule.type === 'filter'
      ? rule.conditions.map((c) => `${c.key} ${c.op} ${safeJson(c.threshold, 40)}${shown(c.actualSummary, c.redacted, capture)}`)
      : rule.inputs.map((i) => `${i.key}${shown(i.valueSummary, i.redacted, capture)}`);
  return boundString(`#${rule.ruleIndex} ${rule.branch} ${verdict}${label} [${looked.join(', ')}]`);
}

/** A value a rule read, as it may be exported (events/exportedView.ts); a redacted read never is. */
function shown(summary: string, redacted: boolean, capture: boolean): string {
  const read = redacted ? undefined : exportedView({ type: 'flow.rule_read', payload: { summary } }, capture).payload.summary;
  return read === undefined ? '' : ` -> ${read}`;
}
