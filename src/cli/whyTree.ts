/**
 * The slice drawn as a tree, the answer at the top and each span's producers under it: the part
 * (origin, part indexes, link type) on the branch, then the producing span: member, route, skill,
 * iteration, model, tokens, cost, and under content capture a short excerpt. A span met again (two
 * consumers read it) is drawn once and named again as "(shown above)". Marks what the slice cannot
 * see: a producer not in these files, folded links, a cycle. Bounded: MAX_TREE_LINES lines, each at
 * most MAX_LINE_CHARS, indentation past MAX_TREE_DEPTH drawn at that depth. Outside text stays as
 * it is here; terminal.ts escapes it on the way out.
 */
import { semconv } from '../index.js';
import type { TerminalLine } from './terminal.js';
import type { WhyEdge, WhyGraph, WhyNode } from './whyGraph.js';

export const MAX_TREE_LINES = 2_000;
export const MAX_TREE_DEPTH = 24;
export const MAX_LINE_CHARS = 240;

export function renderSlice(graph: WhyGraph): TerminalLine[] {
  const byId = new Map(graph.nodes.map((n) => [`${n.traceId}/${n.spanId}`, n]));
  const out = new Map<string, WhyEdge[]>();
  const cyclesFrom = new Map<string, string[]>();
  for (const edge of graph.edges) out.set(edge.from, [...(out.get(edge.from) ?? []), edge]);
  for (const cycle of graph.cycles) cyclesFrom.set(cycle.from, [...(cyclesFrom.get(cycle.from) ?? []), cycle.to]);
  const nodeOf = (traceId: string, spanId: string) => byId.get(`${traceId}/${spanId}`);
  const lines: TerminalLine[] = [];
  const push = (text: string) => lines.push(text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS - 1)}…` : text);
  const drawn = new Set<WhyNode>();

  type Item = { node: WhyNode; edge?: WhyEdge; prefix: string; last: boolean; depth: number };
  const root = nodeOf(graph.traceId, graph.root);
  if (!root) return ['(nothing to walk from)'];
  const stack: Item[] = [{ node: root, prefix: '', last: true, depth: 0 }];
  let cut = false;
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (lines.length >= MAX_TREE_LINES) {
      cut = true;
      break;
    }
    const { node, edge, depth } = item;
    const branch = depth === 0 ? '' : `${item.prefix}${item.last ? '└─ ' : '├─ '}`;
    const below = depth === 0 ? '' : depth >= MAX_TREE_DEPTH ? item.prefix : `${item.prefix}${item.last ? '   ' : '│  '}`;
    const label = edge ? `${edgeLabel(edge)} ← ` : '';
    const again = drawn.has(node);
    push(`${branch}${label}${nodeText(node)}${again ? '  (shown above)' : ''}`);
    if (again) continue;
    drawn.add(node);
    if (node.excerpt !== undefined) push(`${below}   “${node.excerpt}”`);
    for (const to of cyclesFrom.get(node.spanId) ?? []) push(`${below}   [cycle: a link back to span ${to}, not followed]`);
    const children = (out.get(node.spanId) ?? []).flatMap((e) => {
      const child = nodeOf(e.toTraceId ?? node.traceId, e.to);
      return child ? [{ edge: e, child }] : [];
    });
    for (let i = children.length - 1; i >= 0; i--) {
      stack.push({ node: children[i]!.child, edge: children[i]!.edge, prefix: below, last: i === children.length - 1, depth: depth + 1 });
    }
  }
  if (cut) lines.push(`(the tree stops at ${MAX_TREE_LINES} lines; --json gives the whole slice)`);
  if (graph.notWalked > 0) lines.push(`(${graph.notWalked} span(s) not walked further: a slice expands at most its node bound)`);
  return lines;
}

/** `tool_result #2,3 INFORMED_BY`: what part of the input, and the kind of link (none for a part the part table names). */
function edgeLabel(edge: WhyEdge): string {
  const parts = edge.partIndexes.length > 0 ? ` #${edge.partIndexes.join(',')}` : '';
  const tokens = edge.tokens === undefined ? '' : ` (${edge.tokens} tok)`;
  return `${edge.origin}${parts}${tokens}${edge.linkType ? ` ${edge.linkType}` : ''}`;
}

function nodeText(node: WhyNode): string {
  if (node.missing) return `[not in these files: span ${node.spanId} of trace ${node.traceId}: ${MISSING[node.missing]}]${node.hop?.id ? ` hop ${node.hop.id}` : ''}`;
  const a = node.attributes;
  const fields: string[] = [];
  const add = (label: string, key: string) => {
    const value = a[key];
    if (value !== undefined && value !== null && value !== '') fields.push(`${label} ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  };
  if (node.kind === 'hop') {
    const hop = node.hop ?? {};
    const move = hop.to === undefined ? 'hop' : `hop ${hop.from === undefined ? '' : `${hop.from} `}→ ${hop.to}${hop.cause ? ` (${hop.cause})` : ''}`;
    fields.push(`${move}${hop.id ? ` ${hop.id}` : ''}: ${node.name}`);
  } else if (node.kind === 'run') {
    fields.push(`the run's input: ${node.name}`);
    add('run', semconv.ATTR_FOOTPRINT_RUN_ID);
  } else {
    fields.push(node.name);
  }
  add('member', semconv.ATTR_FOOTPRINT_AGENT);
  add('route', semconv.ATTR_FOOTPRINT_ROUTE);
  add('skill', semconv.ATTR_FOOTPRINT_SKILL);
  add('iteration', semconv.ATTR_FOOTPRINT_ITERATION);
  if (node.kind === 'chat') add('model', semconv.ATTR_GEN_AI_REQUEST_MODEL);
  const input = a[semconv.ATTR_GEN_AI_USAGE_INPUT_TOKENS];
  const output = a[semconv.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS];
  if (node.kind === 'chat' && (typeof input === 'number' || typeof output === 'number')) fields.push(`tokens ${input ?? '?'} in / ${output ?? '?'} out`);
  const cost = a[semconv.ATTR_FOOTPRINT_COST_USD];
  if (node.kind === 'chat' && typeof cost === 'number') fields.push(`$${cost.toFixed(6)}`);
  if (node.status === 'error') fields.push('ERROR');
  const marks: string[] = [];
  const linksFolded = a[semconv.ATTR_FOOTPRINT_LINEAGE_LINKS_FOLDED];
  const partsFolded = a[semconv.ATTR_FOOTPRINT_LINEAGE_PARTS_FOLDED];
  if (typeof linksFolded === 'number' && linksFolded > 0) marks.push(`[${linksFolded} folded]`);
  if (typeof partsFolded === 'number' && partsFolded > 0) marks.push(`[${partsFolded} parts folded]`);
  if (node.linksNotFollowed) marks.push(`[${node.linksNotFollowed} links not followed]`);
  if (node.notWalked) marks.push('[not walked: node bound]');
  return [...fields, ...marks].join('  ');
}

const MISSING: Record<NonNullable<WhyNode['missing']>, string> = {
  trace_absent: 'its trace is not there (another run not exported here, or not kept)',
  span_absent: 'its trace is there, the span is not (sampled out or lost)',
  trace_not_read: 'one more linked trace than a slice reads',
};
