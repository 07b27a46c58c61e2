/**
 * Generates the reference page's generated section (docs/reference.md) — the spans the bridge creates and their attributes
 * (names from src/otel/encoding/semconv.ts), the error.type values (src/runtime/providers/errorTypeDocs.ts), every typed event with its payload fields (EVENT_DOCS, fields read
 * from the EventPayloads declaration in src/events/catalog.ts), and every metric (METRIC_CATALOG with
 * its Prometheus names) — between `<!-- reference:start -->` and `<!-- reference:end -->`.
 *
 *   npx tsx scripts/reference.ts            rewrite the section in docs/reference.md
 *   npx tsx scripts/reference.ts --check    exit 1 when the section is out of date
 *   ... --readme PATH                       another file (tests use this)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { EVENT_DOCS, EVENT_TYPES, type EventType } from '../src/events/catalog.js';
import { METRIC_CATALOG, METRICS } from '../src/otel/metrics/catalog.js';
import { prometheusSeries } from '../src/otel/metrics/prometheusNames.js';
import * as S from '../src/otel/encoding/semconv.js';
import { ERROR_TYPE_DOCS } from '../src/runtime/providers/errorTypeDocs.js';

export const START_MARKER = '<!-- reference:start -->';
export const END_MARKER = '<!-- reference:end -->';

const ROOT = path.resolve(import.meta.dirname, '..');
export const REFERENCE_PAGE = path.join(ROOT, 'docs', 'reference.md');
const EVENT_CATALOG_SOURCE = path.join(ROOT, 'src', 'events', 'catalog.ts');

// ── spans ────────────────────────────────────────────────────────────────────────────────────────

interface SpanDoc {
  /** The span name (a template: `{model}` stands for the model id), or the names it takes. */
  names: readonly string[];
  /** Said before the names, when the row is a role rather than one kind of span. */
  label?: string;
  kind: string;
  what: string;
  attributes: readonly string[];
}

/** The spans of a run, named with the semconv builders; attributes are the constants the bridge sets. */
export const SPANS: readonly SpanDoc[] = [
  {
    label: 'the run (root)',
    names: [S.agentSpanName('{agent name}'), S.workflowSpanName('{composition id}'), 'llm_call {name}'],
    kind: 'INTERNAL',
    what: 'One per run() or resume() of a top-level runner: the trace root, with the run roll-ups.',
    attributes: [
      S.ATTR_FOOTPRINT_RUN_ID, S.ATTR_FOOTPRINT_RUNNER_KIND, S.ATTR_FOOTPRINT_RUNNER_ID, S.ATTR_FOOTPRINT_RUN_OUTCOME, S.ATTR_FOOTPRINT_TOKENS_INPUT, S.ATTR_FOOTPRINT_TOKENS_OUTPUT, S.ATTR_FOOTPRINT_COST_USD,
      S.ATTR_FOOTPRINT_LLM_CALLS, S.ATTR_FOOTPRINT_SKILL_PATH, S.ATTR_FOOTPRINT_TRIP_KINDS, S.ATTR_FOOTPRINT_ESCALATED, S.ATTR_FOOTPRINT_RESUMED, S.ATTR_FOOTPRINT_PAUSED, S.ATTR_FOOTPRINT_RUN_STOP_REASON,
      S.ATTR_FOOTPRINT_LINEAGE_ANSWER_SPAN_ID, S.ATTR_FOOTPRINT_LINEAGE_ANSWER_PRODUCER, S.ATTR_ERROR_TYPE,
    ],
  },
  {
    names: [S.agentSpanName('{agent name}')],
    kind: 'INTERNAL',
    what:
      'An agent turn (the run span itself for a top-level agent), or an LLM router\'s decision: its model call, named by the router id (member kind `router`). ' +
      '`gen_ai.agent.id`, `gen_ai.provider.name` and the cache counts only under the v1.41 names (semconv `v1.41` or `both`: docs/conventions.md).',
    attributes: [
      S.ATTR_GEN_AI_OPERATION_NAME, S.ATTR_GEN_AI_AGENT_NAME, S.ATTR_GEN_AI_AGENT_ID, S.ATTR_GEN_AI_AGENT_DESCRIPTION, S.ATTR_GEN_AI_PROVIDER_NAME, S.ATTR_GEN_AI_REQUEST_MODEL,
      S.ATTR_GEN_AI_REQUEST_TEMPERATURE, S.ATTR_GEN_AI_REQUEST_MAX_TOKENS, S.ATTR_GEN_AI_CONVERSATION_ID, S.ATTR_GEN_AI_USAGE_INPUT_TOKENS,
      S.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS, S.ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS, S.ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS,
      S.ATTR_GEN_AI_RESPONSE_FINISH_REASONS, S.ATTR_FOOTPRINT_COST_USD, S.ATTR_FOOTPRINT_LLM_CALLS,
      S.ATTR_FOOTPRINT_ITERATIONS, S.ATTR_FOOTPRINT_TURN_OUTCOME, S.ATTR_FOOTPRINT_MEMBER_KIND, S.ATTR_FOOTPRINT_MEMBER_ID,
    ],
  },
  {
    names: [S.workflowSpanName('{composition id}')],
    kind: 'INTERNAL',
    what: 'A composition (Sequence, Parallel, Conditional, Loop, swarm) or an LLM router step.',
    attributes: [S.ATTR_GEN_AI_OPERATION_NAME, S.ATTR_GEN_AI_WORKFLOW_NAME, S.ATTR_FOOTPRINT_COMPOSITION_KIND, S.ATTR_FOOTPRINT_COMPOSITION_STATUS, S.ATTR_FOOTPRINT_MEMBER_KIND, S.ATTR_FOOTPRINT_MEMBER_ID],
  },
  {
    names: [S.chatSpanName('{model}')],
    kind: 'CLIENT',
    what: 'One model call, with its usage and cost; the provider call (and its HTTP span) runs inside it. Cache writes are `gen_ai.usage.cache_write.input_tokens`, `…cache_creation…` under the v1.41 names.',
    attributes: [
      S.ATTR_GEN_AI_OPERATION_NAME, S.ATTR_GEN_AI_PROVIDER_NAME, S.ATTR_GEN_AI_REQUEST_MODEL, S.ATTR_SERVER_ADDRESS, S.ATTR_SERVER_PORT, S.ATTR_GEN_AI_REQUEST_TEMPERATURE,
      S.ATTR_GEN_AI_REQUEST_MAX_TOKENS, S.ATTR_GEN_AI_REQUEST_STREAM, S.ATTR_GEN_AI_RESPONSE_MODEL, S.ATTR_GEN_AI_RESPONSE_ID, S.ATTR_GEN_AI_REQUEST_PREVIOUS_RESPONSE_ID, S.ATTR_GEN_AI_REQUEST_REASONING_LEVEL, S.ATTR_GEN_AI_OUTPUT_TYPE, S.ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
      S.ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK,
      S.ATTR_GEN_AI_USAGE_INPUT_TOKENS, S.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS, S.ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
      S.ATTR_GEN_AI_USAGE_CACHE_WRITE_INPUT_TOKENS, S.ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS, S.ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS, S.ATTR_GEN_AI_CONVERSATION_ID, S.ATTR_FOOTPRINT_AGENT, S.ATTR_FOOTPRINT_SKILL, S.ATTR_FOOTPRINT_ROUTE, S.ATTR_FOOTPRINT_BRAIN,
      S.ATTR_FOOTPRINT_ITERATION, S.ATTR_FOOTPRINT_LLM_CALL_ID, S.ATTR_FOOTPRINT_COST_USD, S.ATTR_FOOTPRINT_COST_PRICED, S.ATTR_FOOTPRINT_LINEAGE_PART_ORIGINS,
      S.ATTR_FOOTPRINT_LINEAGE_PART_PRODUCERS, S.ATTR_FOOTPRINT_LINEAGE_PART_TOKENS, S.ATTR_FOOTPRINT_LINEAGE_SHARED_PARTS, S.ATTR_FOOTPRINT_LINEAGE_SHARED_SPAN_ID, S.ATTR_FOOTPRINT_LINEAGE_PARTS_FOLDED,
      S.ATTR_FOOTPRINT_LINEAGE_LINKS_FOLDED, S.ATTR_ERROR_TYPE,
    ],
  },
  {
    names: [S.toolSpanName('{tool}'), `${S.toolSpanName('read_skill')} {skill}`],
    kind: 'INTERNAL',
    what:
      'One tool call; failed on an error, invalid arguments or an unknown tool. A read_skill call is the conventions\' skill load, named by the skill it asks for, ' +
      'with `gen_ai.skill.name` (`execute_tool read_skill` under the v1.41 names only).',
    attributes: [
      S.ATTR_GEN_AI_OPERATION_NAME, S.ATTR_GEN_AI_TOOL_NAME, S.ATTR_GEN_AI_SKILL_NAME, S.ATTR_GEN_AI_TOOL_CALL_ID, S.ATTR_GEN_AI_TOOL_TYPE, S.ATTR_GEN_AI_TOOL_DESCRIPTION, S.ATTR_FOOTPRINT_AGENT, S.ATTR_FOOTPRINT_ITERATION,
      S.ATTR_FOOTPRINT_TOOL_PARALLEL_COUNT, S.ATTR_FOOTPRINT_TOOL_STATUS, S.ATTR_FOOTPRINT_PAUSED, S.ATTR_ERROR_TYPE,
    ],
  },
  {
    names: ['{stage name}'],
    kind: 'INTERNAL',
    what:
      "Detail `full` only: one per stage execution and subflow mount (a mounted member's span is its subflow span; " +
      'in runner runs a subflow that is no member is named by its subflow id, and there is no `footprint.stage.type`).',
    attributes: [S.ATTR_FOOTPRINT_STAGE_ID, S.ATTR_FOOTPRINT_STAGE_RUNTIME_ID, S.ATTR_FOOTPRINT_STAGE_TYPE, S.ATTR_FOOTPRINT_STAGE_LOOP_ITERATION, S.ATTR_FOOTPRINT_STAGE_ATTEMPTS, S.ATTR_FOOTPRINT_SUBFLOW_ID, S.ATTR_ERROR_TYPE],
  },
  {
    label: 'a PostgreSQL store call (footprint-otel/postgres)',
    names: ['SELECT {table}', 'INSERT {table}', 'CREATE TABLE {table}'],
    kind: 'CLIENT',
    what:
      'One call of a PostgreSQL store (`load`, `append`, `claim`, `ensure_schema`) under the active span (the run\'s, inside a run), ' +
      'with the database conventions and no statement text; instrumentation scope `footprint-otel.postgres` (docs/stores.md).',
    attributes: [
      S.ATTR_DB_SYSTEM_NAME, S.ATTR_DB_OPERATION_NAME, S.ATTR_DB_COLLECTION_NAME, S.ATTR_DB_QUERY_SUMMARY, S.ATTR_DB_NAMESPACE, S.ATTR_SERVER_ADDRESS,
      S.ATTR_SERVER_PORT, S.ATTR_FOOTPRINT_STORE_CALL, S.ATTR_GEN_AI_CONVERSATION_ID, S.ATTR_DB_RESPONSE_STATUS_CODE, S.ATTR_ERROR_TYPE,
    ],
  },
  {
    names: ['fork {stage}'],
    kind: 'INTERNAL',
    what: 'Detail `full`, plain charts (`traceExecutor`) only: the parent of the branches of a fork.',
    attributes: [S.ATTR_FOOTPRINT_STAGE_TYPE, S.ATTR_FOOTPRINT_STAGE_RUNTIME_ID, S.ATTR_FOOTPRINT_FORK_CHILDREN],
  },
];

/** Opt-in content attributes (only under the content-capture variable). */
export const CONTENT_ATTRIBUTES: readonly string[] = [
  S.ATTR_GEN_AI_SYSTEM_INSTRUCTIONS, S.ATTR_GEN_AI_INPUT_MESSAGES, S.ATTR_GEN_AI_OUTPUT_MESSAGES, S.ATTR_GEN_AI_TOOL_CALL_ARGUMENTS, S.ATTR_GEN_AI_TOOL_CALL_RESULT,
  S.ATTR_GEN_AI_TOOL_DEFINITIONS,
];

/** Span events the structure layer adds (typed events are listed under Events). */
export const STRUCTURE_EVENTS: readonly string[] = [S.EVENT_FOOTPRINT_DECISION, S.EVENT_FOOTPRINT_SELECTION, S.EVENT_FOOTPRINT_STAGE_ATTEMPT, S.EVENT_FOOTPRINT_STAGE_RETRY, S.EVENT_FOOTPRINT_LOOP, S.EVENT_FOOTPRINT_BREAK, S.EVENT_FOOTPRINT_PAUSE, S.EVENT_FOOTPRINT_RESUME];

function spansSection(): string[] {
  return [
    '### Spans',
    '',
    `Span names and \`gen_ai.*\` attributes follow the GenAI semantic conventions ${S.SEMCONV_VERSION}; everything else is \`footprint.*\`. ` +
      `Instrumentation scope \`${S.INSTRUMENTATION_NAME}\`.`,
    '',
    '| span | kind | what it stands for | attributes |',
    '|---|---|---|---|',
    ...SPANS.map((s) => row([(s.label ? `${s.label}: ` : '') + s.names.map(code).join(', '), s.kind, s.what, s.attributes.map(code).join(', ')])),
    '',
    `A resumed run's span links the run that paused (${code(S.ATTR_FOOTPRINT_LINK_TYPE)} \`paused_run\`) and, when resumed under another ` +
      `span, that caller (\`resumed_by\`). A fallback's \`chat\` span links the failed call it retries on another provider ` +
      `(${code(S.ATTR_GEN_AI_ATTRIBUTION_LINK_TYPE)} \`${S.LINK_RETRY_OF}\`, given at span start; proposed in semantic-conventions-genai PR #370, not merged). ` +
      `Lineage (docs/lineage.md): a \`chat\` span links the spans that produced its input (\`${S.LINK_INFORMED_BY}\`), an \`execute_tool\` span the \`chat\` span ` +
      `that asked for it (\`${S.LINK_CAUSED_BY_GENERATION}\`); on a link: ` +
      `${[S.ATTR_FOOTPRINT_LINEAGE_ORIGIN, S.ATTR_FOOTPRINT_LINEAGE_SLOT, S.ATTR_FOOTPRINT_LINEAGE_PART_INDEXES, S.ATTR_FOOTPRINT_LINEAGE_CHARS, S.ATTR_FOOTPRINT_LINEAGE_TOKENS, S.ATTR_FOOTPRINT_LINEAGE_FINGERPRINTS, S.ATTR_FOOTPRINT_LINEAGE_PRODUCER, S.ATTR_FOOTPRINT_LINEAGE_HOP].map(code).join(', ')}. ` +
      `The run span names the \`chat\` span whose output became its answer in ${code(S.ATTR_FOOTPRINT_LINEAGE_ANSWER_SPAN_ID)} and ${code(S.ATTR_FOOTPRINT_LINEAGE_ANSWER_PRODUCER)} ` +
      `(attributes, not a link: Jaeger would make that link the root span's parent). A failed span has status ERROR and ${code(S.ATTR_ERROR_TYPE)}; one failure is one \`exception\` event, ` +
      `on the span where it happened (the failed \`chat\` call, else the stage that threw, else the run span). ` +
      `Content — ${CONTENT_ATTRIBUTES.map(code).join(', ')} — is recorded only when ${code(S.CAPTURE_CONTENT_ENV)} is \`span_only\` or \`true\`.`,
    '',
    `An MCP \`tools/list\` client span (\`footprint-otel/mcp\`, docs/mcp.md) whose list held tools that cannot be used carries ` +
      `${code(S.ATTR_FOOTPRINT_MCP_TOOLS_REFUSED)}: each refused tool as \`tool "name": reason\` (at most 50); the other tools are offered.`,
    '',
    `Usage is reported only when the provider reported it: a \`chat\` span whose response had no usage has no ` +
      `\`gen_ai.usage.*\` attributes and records nothing in ${code(METRICS.tokenUsage.name)}; a failed call has neither usage ` +
      `nor ${code(S.ATTR_GEN_AI_RESPONSE_FINISH_REASONS)}. ${code(S.ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS)} (part of the output tokens) is on ` +
      `spans only: ${code(S.ATTR_GEN_AI_TOKEN_TYPE)} has no reasoning value in ${S.SEMCONV_VERSION}. The cost of a call is known only from its usage and a listed price: ` +
      `otherwise (no usage, or a model the pricing table lacks) ${code(S.ATTR_FOOTPRINT_COST_USD)} is 0 with ${code(S.ATTR_FOOTPRINT_COST_PRICED)} \`false\`, ` +
      `and ${code(METRICS.llmCost.name)} adds 0.`,
    '',
    `Span events: every typed event below except model calls and tool calls (which become \`chat\` and ` +
      `\`execute_tool\` spans and their attributes), on the span of the stage that emitted it (in detail \`semantic\`, its ` +
      `member's span), its payload flattened under ` +
      `the event's name (\`footprint.loop_guard.trip.kind\`) plus ${code(S.ATTR_FOOTPRINT_MEMBER_KIND)}, ${code(S.ATTR_FOOTPRINT_MEMBER_ID)} and ${code(S.ATTR_FOOTPRINT_ROUTE)}; ` +
      `in detail \`full\` also ${code(S.EVENT_FOOTPRINT_STAGE_ATTEMPT)}, and for plain charts (\`traceExecutor\`, which needs footprintjs's flow hooks) ` +
      `the flowchart's own: ${STRUCTURE_EVENTS.filter((e) => e !== S.EVENT_FOOTPRINT_STAGE_ATTEMPT).map(code).join(', ')}. ` +
      `Runner runs attach no flow hook (footprintjs's narrative stays off): their decisions, pauses and resumes are the typed events.`,
    '',
    `The runtime's own checks of a model's answer are ${code(S.EVENT_GEN_AI_EVALUATION_RESULT)} events on that answer's \`chat\` span ` +
      `(kept open until the agent's next step, ended at its own end time), with ${code(S.ATTR_GEN_AI_EVALUATION_NAME)} ` +
      `(\`footprint.skill_jump\`: a refused skill jump; \`footprint.tool_arguments\`: arguments that are no JSON object or fail the tool's schema; ` +
      `\`footprint.router_choice\`: a router step's or an llmSwarm router's answer naming an agent outside its roster, or not parseable as a decision), ` +
      `${code(S.ATTR_GEN_AI_EVALUATION_SCORE_LABEL)} (\`refused\`, \`invalid\`, \`not_in_roster\`, \`malformed\`), ${code(S.ATTR_GEN_AI_EVALUATION_SCORE_VALUE)} 0 and ${code(S.ATTR_GEN_AI_EVALUATION_EXPLANATION)}.`,
  ];
}

// ── error.type ───────────────────────────────────────────────────────────────────────────────────

function errorTypesSection(): string[] {
  return [
    `#### ${code(S.ATTR_ERROR_TYPE)} values`,
    '',
    `The values footprint-otel reports in ${code(S.ATTR_ERROR_TYPE)} (semantic conventions ${S.SEMCONV_VERSION}), from ` +
      'src/runtime/providers/errorTypeDocs.ts. A failure that fails a member or the run carries the same value up to their spans and ' +
      `\`run.failed\`; a failure that carries no type at all is reported as \`_OTHER\`, the conventions' fallback.`,
    '',
    '| error.type | reported by | means |',
    '|---|---|---|',
    ...ERROR_TYPE_DOCS.map((doc) =>
      row([code(doc.value) + (doc.examples ? ` (${doc.examples.map(code).join(', ')})` : ''), doc.where, doc.means]),
    ),
  ];
}

// ── events ───────────────────────────────────────────────────────────────────────────────────────

/**
 * The top-level payload fields of each event, read from the `EventPayloads` declaration (an optional
 * field ends in `?`). A small scanner, not a TypeScript parser: it knows comments, string literals and
 * bracket depth, which is all an interface of inline object types needs.
 */
export function payloadFields(source: string = readFileSync(EVENT_CATALOG_SOURCE, 'utf8')): Map<string, string[]> {
  const start = source.indexOf('export interface EventPayloads');
  if (start < 0) throw new Error('no `export interface EventPayloads` in the event catalog');
  const text = blankComments(source.slice(source.indexOf('{', start)));
  const fields = new Map<string, string[]>();
  let depth = 0;
  let event: string | undefined;
  let previous = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'" || c === '"' || c === '`') {
      const end = text.indexOf(c, i + 1);
      const literal = text.slice(i + 1, end);
      const entry = depth === 1 ? /^\s*:\s*(?:([A-Z]\w*)\s*&\s*)?\{/.exec(text.slice(end + 1)) : null;
      if (entry) {
        event = literal;
        // A payload that extends a shared interface (`ModelCallSubject & { … }`) lists its fields first.
        fields.set(event, entry[1] === undefined ? [] : interfaceFields(source, entry[1]));
      }
      i = end;
      previous = c;
      continue;
    }
    if ('{[('.includes(c)) depth++;
    else if ('}])'.includes(c)) {
      depth--;
      if (depth === 0) break;
      if (depth === 1) event = undefined;
    } else if (depth === 2 && event && /[A-Za-z_$]/.test(c) && '{;,'.includes(previous)) {
      const field = /^([A-Za-z_$][\w$]*)\s*(\?)?\s*:/.exec(text.slice(i));
      if (field) {
        fields.get(event)!.push(`${field[1]}${field[2] ?? ''}`);
        i += field[1]!.length - 1;
      }
    }
    if (!/\s/.test(c)) previous = c;
  }
  return fields;
}

/** The top-level fields of `export interface <name> { … }` in `source`, read by the same scanner. */
function interfaceFields(source: string, name: string): string[] {
  const start = source.indexOf(`export interface ${name} {`);
  if (start < 0) throw new Error(`no \`export interface ${name}\` in the event catalog`);
  const body = source.slice(source.indexOf('{', start), source.indexOf('\n}', start) + 2);
  return payloadFields(`export interface EventPayloads { '${name}': ${body} }`).get(name)!;
}

/** The source with every comment replaced by spaces (string literals left alone). */
function blankComments(source: string): string {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "'" || c === '"' || c === '`') {
      const end = source.indexOf(c, i + 1);
      out += source.slice(i, end + 1);
      i = end;
    } else if (source.startsWith('//', i)) {
      const end = source.indexOf('\n', i);
      out += ' '.repeat((end < 0 ? source.length : end) - i);
      i = (end < 0 ? source.length : end) - 1;
    } else if (source.startsWith('/*', i)) {
      const end = source.indexOf('*/', i + 2) + 2;
      out += source.slice(i, end).replace(/[^\n]/g, ' ');
      i = end - 1;
    } else out += c;
  }
  return out;
}

function eventsSection(): string[] {
  const fields = payloadFields();
  const missing = EVENT_TYPES.filter((type) => !fields.has(type));
  if (missing.length > 0) throw new Error(`no payload declaration found for ${missing.join(', ')}`);
  const domains = new Map<string, EventType[]>();
  for (const type of EVENT_TYPES) {
    const domain = type.split('.')[1]!;
    domains.set(domain, [...(domains.get(domain) ?? []), type]);
  }
  const lines = [
    '### Events',
    '',
    'Typed events, `{ type, payload, meta }`, heard with `runner.on(type | \'footprint.<domain>.*\' | \'*\', listener)`; ' +
      '`meta` carries the run id, stage, time, member, agent id, composition path and route. Optional fields end in `?`.',
  ];
  for (const [domain, types] of domains) {
    lines.push('', `**${domain}**`, '', '| event | what it says | payload |', '|---|---|---|');
    for (const type of types) lines.push(row([code(type), EVENT_DOCS[type], fields.get(type)!.map(code).join(', ') || '—']));
  }
  return lines;
}

// ── metrics ──────────────────────────────────────────────────────────────────────────────────────

function metricsSection(): string[] {
  return [
    '### Metrics',
    '',
    'OTLP names as exported; the Prometheus series are what Prometheus\'s and VictoriaMetrics\'s OTLP receivers store ' +
      '(dashboards and alert rules query these). Cumulative temporality; every attribute is bounded.',
    '',
    '| instrument | kind, unit | Prometheus series | attributes | what it counts |',
    '|---|---|---|---|---|',
    ...METRIC_CATALOG.map((spec) =>
      row([
        code(spec.name),
        `${spec.kind} ${code(spec.unit)}`,
        prometheusSeries(spec).map(code).join('<br>'),
        spec.attributes.map(code).join(', ') || '—',
        spec.description,
      ]),
    ),
  ];
}

// ── the section ──────────────────────────────────────────────────────────────────────────────────

/** The generated reference, without the markers. */
export function renderReference(): string {
  return [
    '_Generated by `npm run reference` (scripts/reference.ts) from src/otel/encoding/semconv.ts, src/runtime/providers/errorTypeDocs.ts, ' +
      'src/events/catalog.ts and src/otel/metrics/catalog.ts; edit those, not this._',
    '',
    ...spansSection(),
    '',
    ...errorTypesSection(),
    '',
    ...eventsSection(),
    '',
    ...metricsSection(),
  ].join('\n');
}

/** The page with `section` between the markers (each on a line of its own). */
export function spliceReference(readme: string, section: string): string {
  const start = readme.indexOf(START_MARKER);
  const end = readme.indexOf(END_MARKER);
  if (start < 0 || end < start) throw new Error(`the page has no ${START_MARKER} … ${END_MARKER} section`);
  return `${readme.slice(0, start + START_MARKER.length)}\n${section}\n${readme.slice(end)}`;
}

function code(text: string): string {
  return `\`${text}\``;
}

/** A table row; a `|` inside a cell would end it, so it is escaped. */
function row(cells: string[]): string {
  return `| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`;
}

function main(argv: string[]): number {
  const { values } = parseArgs({ args: argv, options: { check: { type: 'boolean', default: false }, readme: { type: 'string' } } });
  const file = path.resolve(values.readme ?? REFERENCE_PAGE);
  const readme = readFileSync(file, 'utf8');
  const updated = spliceReference(readme, renderReference());
  if (values.check) {
    if (updated === readme) return 0;
    console.error(`${path.relative(process.cwd(), file) || file}: the reference section is out of date; run npm run reference`);
    return 1;
  }
  if (updated !== readme) writeFileSync(file, updated);
  console.log(updated === readme ? `${file}: the reference is current` : `${file}: reference rewritten`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    console.error(`reference: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}
