/**
 * Rules for one exported GenAI span against its span group, in v1.41 or in the current model
 * (currentModel.ts; the default mode's spans follow it): kind, name, required attributes,
 * conditionally-required ones whose condition the span itself decides (error.type on ERROR,
 * server.port with server.address), the rest present exactly when the scenario says the data exists,
 * sampling-relevant attributes and the final name already there at span start, and span-event rules.
 * The current model also lists every gen_ai.* attribute a span type may carry: one it does not list
 * (one it removed, as gen_ai.agent.id from an in-process agent span) is a violation there.
 */
import { SpanKind, SpanStatusCode, type Attributes } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { attributeViolations } from './attributeRules.js';
import { currentSpanGroupId, currentSpanName, loadCurrentModel } from './currentModel.js';
import { loadSemconvModel, type AttributeUse, type Group, type SemconvModel } from './model.js';
import type { Violation } from './violation.js';

/** What a span looked like when it started (recorded by a span processor's onStart). */
export interface StartSnapshot {
  name: string;
  attributes: Attributes;
}

/** The recommended / conditionally-required / opt-in attributes whose data exists for a span. */
export type AvailableOnSpan = (span: ReadableSpan) => readonly string[];

const GROUP_BY_OPERATION: Record<string, { client?: string; internal?: string }> = {
  chat: { client: 'span.gen_ai.inference.client', internal: 'span.gen_ai.inference.client' },
  invoke_agent: { client: 'span.gen_ai.invoke_agent.client', internal: 'span.gen_ai.invoke_agent.internal' },
  invoke_workflow: { internal: 'span.gen_ai.invoke_workflow.internal' },
  execute_tool: { internal: 'span.gen_ai.execute_tool.internal' },
};

/** The attribute naming each operation's span (`{operation} {value}`). */
const NAMED_BY: Record<string, string> = {
  chat: 'gen_ai.request.model',
  invoke_agent: 'gen_ai.agent.name',
  invoke_workflow: 'gen_ai.workflow.name',
  execute_tool: 'gen_ai.tool.name',
};

function spanGroupId(span: ReadableSpan): string | undefined {
  const operation = span.attributes['gen_ai.operation.name'];
  if (typeof operation !== 'string') return undefined;
  const groups = GROUP_BY_OPERATION[operation];
  return span.kind === SpanKind.CLIENT ? (groups?.client ?? groups?.internal) : (groups?.internal ?? groups?.client);
}

/** Which model spans are judged by: its groups and registry, how a span finds its group and its name. */
export interface SpanConventions {
  /** For messages. */
  label: string;
  model(): SemconvModel;
  groupOf(span: ReadableSpan): string | undefined;
  expectedName(attributes: Attributes): string;
  /** A gen_ai.* attribute the span's group does not list is a violation. */
  listsEveryAttribute: boolean;
}

export const V1_41_SPANS: SpanConventions = {
  label: 'v1.41',
  model: loadSemconvModel,
  groupOf: spanGroupId,
  expectedName,
  listsEveryAttribute: false,
};

export const CURRENT_SPANS: SpanConventions = {
  label: 'the current model',
  model: loadCurrentModel,
  groupOf: (span) => currentSpanGroupId(span.attributes),
  expectedName: currentSpanName,
  listsEveryAttribute: true,
};

function describeSpan(span: ReadableSpan, groupId?: string): string {
  return `span "${span.name}"${groupId ? ` [${groupId}]` : ''}`;
}

export interface SpanCheck {
  span: ReadableSpan;
  available: readonly string[];
  atStart?: StartSnapshot;
}

export function spanViolations(conventions: SpanConventions, check: SpanCheck): Violation[] {
  const { span } = check;
  const model = conventions.model();
  const groupId = conventions.groupOf(check.span);
  const where = describeSpan(span, groupId);
  const found = [...attributeViolations(model, where, span.attributes), ...eventViolations(model, where, span)];
  const operation = span.attributes['gen_ai.operation.name'];
  if (operation === undefined) return found;
  if (!groupId) return [...found, { where, attribute: 'gen_ai.operation.name', rule: `operation ${JSON.stringify(operation)} has no span group in ${conventions.label}` }];
  const group = model.group(groupId);
  found.push(...shapeViolations(where, group, span, conventions.expectedName(span.attributes)));
  if (conventions.listsEveryAttribute) {
    for (const key of Object.keys(span.attributes)) {
      if (key.startsWith('gen_ai.') && !group.attributes.has(key)) found.push({ where, attribute: key, rule: `not an attribute of this span type in ${conventions.label}` });
    }
  }
  for (const use of group.attributes.values()) {
    const rule = presenceRule(use, span, check.available);
    if (rule) found.push({ where, attribute: use.id, rule });
  }
  if (check.atStart) found.push(...startViolations(where, group, span, check.atStart));
  return found;
}

function shapeViolations(where: string, group: Group, span: ReadableSpan, expected: string): Violation[] {
  const found: Violation[] = [];
  const kind = SpanKind[span.kind].toLowerCase();
  if (kind !== group.spanKind) found.push({ where, rule: `span kind must be ${group.spanKind}, is ${kind}` });
  if (span.name !== expected) found.push({ where, rule: `span name must be ${JSON.stringify(expected)}` });
  return found;
}

function expectedName(attributes: Attributes): string {
  const operation = String(attributes['gen_ai.operation.name']);
  const subject = attributes[NAMED_BY[operation] ?? ''];
  return subject === undefined ? operation : `${operation} ${String(subject)}`;
}

function presenceRule(use: AttributeUse, span: ReadableSpan, available: readonly string[]): string | undefined {
  const present = span.attributes[use.id] !== undefined;
  if (use.requirement === 'required') return present ? undefined : 'missing: required';
  if (use.id === 'error.type') {
    const failed = span.status.code === SpanStatusCode.ERROR;
    if (failed && !present) return 'missing: conditionally required (the span ended in an error)';
    if (!failed && present) return 'set on a span that did not end in an error';
    return undefined;
  }
  if (use.id === 'server.port') {
    const withAddress = span.attributes['server.address'] !== undefined;
    if (withAddress !== present) return withAddress ? 'missing: conditionally required (server.address is set)' : 'set without server.address';
    return undefined;
  }
  const exists = available.includes(use.id);
  if (exists && !present) return `missing: ${use.requirement.replace('_', ' ')} and the data exists`;
  if (!exists && present) return `set though the scenario has no data for it (${use.requirement.replace('_', ' ')})`;
  return undefined;
}

/** The spec marks these as needed for sampling decisions: they must be on the span when it starts. */
function startViolations(where: string, group: Group, span: ReadableSpan, atStart: StartSnapshot): Violation[] {
  const found: Violation[] = [];
  if (atStart.name !== span.name) found.push({ where, rule: `started as ${JSON.stringify(atStart.name)}, renamed later` });
  for (const use of group.attributes.values()) {
    if (!use.samplingRelevant || span.attributes[use.id] === undefined) continue;
    if (atStart.attributes[use.id] !== span.attributes[use.id]) {
      found.push({ where, attribute: use.id, rule: 'sampling-relevant but not set at span start' });
    }
  }
  return found;
}

function eventViolations(model: SemconvModel, where: string, span: ReadableSpan): Violation[] {
  const names = model.eventNames();
  const found: Violation[] = [];
  for (const event of span.events) {
    const at = `${where} event "${event.name}"`;
    if (names.deprecated.has(event.name)) found.push({ where: at, rule: 'event name deprecated in v1.41' });
    else if (event.name.startsWith('gen_ai.') && !names.live.has(event.name)) found.push({ where: at, rule: 'not an event of the model' });
    found.push(...attributeViolations(model, at, event.attributes ?? {}));
    const group = [...model.groups.values()].find((g) => g.type === 'event' && g.eventName === event.name);
    for (const use of group?.attributes.values() ?? []) {
      if (use.requirement === 'required' && event.attributes?.[use.id] === undefined) found.push({ where: at, attribute: use.id, rule: 'missing: required' });
    }
    if (event.name !== 'exception') continue;
    const type = event.attributes?.['exception.type'];
    if (type === undefined && event.attributes?.['exception.message'] === undefined) {
      found.push({ where: at, rule: 'exception.type or exception.message is required' });
    }
    if (typeof type === 'string' && /^\d+$/.test(type)) {
      found.push({ where: at, attribute: 'exception.type', rule: `is a status code (${type}), not the exception's type` });
    }
  }
  return found;
}
