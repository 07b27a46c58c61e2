/**
 * The terminal waterfall of one trace: spans indented by parent, a bar placed on the run's time axis,
 * the duration, the cost of each LLM call, and span events (route decisions, hops, trips,
 * escalations) inline under their span. Input is a list of spans of one trace, from the in-memory SDK
 * or read back from the OTLP-JSON telemetry files.
 */
export interface ViewSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startMs: number;
  endMs: number;
  attributes: Record<string, unknown>;
  events: { name: string; timeMs: number; attributes: Record<string, unknown> }[];
  status: 'ok' | 'error' | 'unset';
  statusMessage?: string;
}

export interface WaterfallOptions {
  width?: number;
  color?: boolean;
  /** Show every stage span (default) or only the semantic ones (run, agents, workflows, chat, tools). */
  eventsFilter?: (name: string) => boolean;
}

const SHOWN_EVENTS = /^footprint\.(composition\.route_decided|route\.(hop|trip)|skill\.(rejected|escalated)|cost\.limit_hit|run\.(paused|resumed|failed)|agent\.route_decided)$/;

export function renderWaterfall(spans: ViewSpan[], options: WaterfallOptions = {}): string[] {
  if (spans.length === 0) return ['(no spans)'];
  const width = options.width ?? 32;
  const paint = colorer(options.color ?? false);
  const ids = new Set(spans.map((s) => s.spanId));
  const children = new Map<string | undefined, ViewSpan[]>();
  for (const span of spans) {
    const parent = span.parentSpanId && ids.has(span.parentSpanId) ? span.parentSpanId : undefined;
    const list = children.get(parent) ?? [];
    list.push(span);
    children.set(parent, list);
  }
  for (const list of children.values()) list.sort((a, b) => a.startMs - b.startMs);
  const t0 = Math.min(...spans.map((s) => s.startMs));
  const total = Math.max(1e-6, Math.max(...spans.map((s) => s.endMs)) - t0);
  const lines: string[] = [];
  const showEvent = options.eventsFilter ?? ((name: string) => SHOWN_EVENTS.test(name));
  const visit = (span: ViewSpan, depth: number) => {
    const from = Math.floor(((span.startMs - t0) / total) * width);
    const to = Math.max(from + 1, Math.ceil(((span.endMs - t0) / total) * width));
    const bar = ' '.repeat(from) + '█'.repeat(Math.min(width, to) - from);
    const label = `${'  '.repeat(depth)}${span.name}`;
    const cost = typeof span.attributes['footprint.cost.usd'] === 'number' ? `  $${(span.attributes['footprint.cost.usd'] as number).toFixed(6)}` : '';
    const status = span.status === 'error' ? paint('red', `  ERROR${span.statusMessage ? `: ${truncate(span.statusMessage, 80)}` : ''}`) : '';
    lines.push(`${truncate(label, 44).padEnd(44)} ${paint(span.status === 'error' ? 'red' : 'cyan', bar.padEnd(width))} ${formatMs(span.endMs - span.startMs).padStart(9)}${cost}${status}`);
    for (const event of span.events) {
      if (!showEvent(event.name)) continue;
      lines.push(`${'  '.repeat(depth + 1)}${paint('yellow', `• ${event.name.replace(/^footprint\./, '')}`)} ${summarize(event.name, event.attributes)}`);
    }
    for (const child of children.get(span.spanId) ?? []) visit(child, depth + 1);
  };
  for (const root of children.get(undefined) ?? []) visit(root, 0);
  return lines;
}

/**
 * An event's attributes as `key=value`. Payload fields are named under the event's name
 * (footprint.route.trip.kind), shown without it (kind); other footprint.* keys lose their namespace.
 * The emitting member (footprint.member.*) is left out: the tree already shows it, and its `kind`
 * would read like the payload's own. Ids that only correlate are left out; fractions get 6 decimals.
 */
function summarize(name: string, attributes: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(attributes)) {
    if (/\.(agent_id|turn_id|call_id)$|agentId|turnId|^footprint\.member\./.test(key)) continue;
    const short = key.startsWith(`${name}.`) ? key.slice(name.length + 1) : key.replace(/^footprint\.([a-z_]+\.)?/, '');
    const text =
      typeof value === 'string'
        ? value
        : typeof value === 'number' && !Number.isInteger(value)
          ? String(Number(value.toFixed(6)))
          : JSON.stringify(value);
    parts.push(`${short}=${text}`);
  }
  return truncate(parts.join(' '), 120);
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(2)} ms`;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function colorer(enabled: boolean) {
  const codes = { red: 31, cyan: 36, yellow: 33 } as const;
  return (color: keyof typeof codes, text: string) => (enabled ? `\u001b[${codes[color]}m${text}\u001b[0m` : text);
}
