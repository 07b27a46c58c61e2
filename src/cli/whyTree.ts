/**
 * The slice drawn as a tree, the answer at the top and each span's producers under it: the part
 * (origin, part indexes, link type) on the branch, then the producing span: member, route, skill,
 * iteration, model, tokens, cost, and under content capture a short excerpt. A span met again (two
 * consumers read it) is drawn once; its other consumers name it on one "also, shown above" line. Marks what the slice cannot
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
  const keyOf = (traceId: string, spanId: string) => `${traceId}/${spanId}`;
  const byKey = new Map(graph.nodes.map((n) => [keyOf(n.traceId, n.spanId), n]));
  const out = new Map<string, WhyEdge[]>();
  const cyclesFrom = new Map<string, string[]>();
  for (const edge of graph.edges) out.set(edge.from, [...(out.get(edge.from) ?? []), edge]);
  for (const cycle of graph.cycles) cyclesFrom.set(cycle.from, [...(cyclesFrom.get(cycle.from) ?? []), cycle.to]);
  const root = byKey.get(keyOf(graph.traceId, graph.root));
  if (!root) return ['(nothing to walk from)'];
  const childrenOf = (node: WhyNode) =>
    (out.get(node.spanId) ?? []).flatMap((edge) => {
      const child = byKey.get(keyOf(edge.toTraceId ?? node.traceId, edge.to));
      return child ? [{ edge, child }] : [];
    });
  const treeEdges = treeEdgesOf(root, childrenOf);

  const lines: TerminalLine[] = [];
  const push = (text: string) => lines.push(text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS - 1)}…` : text);
  type Item = { node: WhyNode; edge?: WhyEdge; prefix: string; last: boolean; depth: number } | { also: string[]; prefix: string };
  const stack: Item[] = [{ node: root, prefix: '', last: true, depth: 0 }];
  let cut = false;
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (lines.length >= MAX_TREE_LINES) {
      cut = true;
      break;
    }
    if ('also' in item) {
      for (const text of wrapped(item.also, `${item.prefix}└─ also, shown above: `, `${item.prefix}   `)) push(text);
      continue;
    }
    const { node, edge, prefix, last, depth } = item;
    const branch = depth === 0 ? '' : `${prefix}${last ? '└─ ' : '├─ '}`;
    const below = depth === 0 ? '' : depth >= MAX_TREE_DEPTH ? prefix : `${prefix}${last ? '   ' : '│  '}`;
    push(`${branch}${edge ? `${edgeLabel(edge)} ← ` : ''}${nodeText(node, edge)}`);
    if (node.excerpt !== undefined) push(`${below}   “${node.excerpt}”`);
    for (const to of cyclesFrom.get(node.spanId) ?? []) push(`${below}   [cycle: a link back to span ${to}, not followed]`);
    const children = childrenOf(node);
    const walked = children.filter((c) => treeEdges.get(c.child) === c.edge);
    const seen = children.filter((c) => treeEdges.get(c.child) !== c.edge);
    // drawn after the walked producers' subtrees: every span it names is drawn by then
    if (seen.length > 0) stack.push({ also: seen.map((c) => `${c.edge.origin}${indexes(c.edge)} ← ${shortName(c.child, c.edge)}`), prefix: below });
    for (let i = walked.length - 1; i >= 0; i--) {
      stack.push({ node: walked[i]!.child, edge: walked[i]!.edge, prefix: below, last: seen.length === 0 && i === walked.length - 1, depth: depth + 1 });
    }
  }
  if (cut) lines.push(`(the tree stops at ${MAX_TREE_LINES} lines; --json gives the whole slice)`);
  if (graph.notWalked > 0) lines.push(`(${graph.notWalked} span(s) not walked further: a slice expands at most its node bound)`);
  return lines;
}

/**
 * The edge each node is drawn under: the first that reaches it in the order the tree is drawn (depth
 * first, producers in order). Every other edge into it is named on its consumer's "also" line.
 */
function treeEdgesOf(root: WhyNode, childrenOf: (node: WhyNode) => { edge: WhyEdge; child: WhyNode }[]): Map<WhyNode, WhyEdge | undefined> {
  const treeEdges = new Map<WhyNode, WhyEdge | undefined>();
  const stack: { node: WhyNode; edge?: WhyEdge }[] = [{ node: root }];
  while (stack.length > 0) {
    const { node, edge } = stack.pop()!;
    if (treeEdges.has(node)) continue;
    treeEdges.set(node, edge);
    const children = childrenOf(node);
    for (let i = children.length - 1; i >= 0; i--) if (!treeEdges.has(children[i]!.child)) stack.push({ node: children[i]!.child, edge: children[i]!.edge });
  }
  return treeEdges;
}

/**
 * Origins whose producer is the agent, not the run: a run span reached by one of them is the span of
 * a run of one agent (its run span is its agent span), and stands for that agent, not for the run's input.
 */
const AGENT_ORIGINS = new Set(['instructions', 'tool_definitions']);

/** True when the node stands, on this edge, for the run's input (a run span, unless it is reached as the agent). */
function asRunInput(node: WhyNode, edge: WhyEdge | undefined): boolean {
  return node.kind === 'run' && (edge === undefined || !AGENT_ORIGINS.has(edge.origin));
}

/** A node named again on an "also" line: enough to find it above. */
function shortName(node: WhyNode, edge: WhyEdge): string {
  if (node.missing) return `[not in these files: span ${node.spanId}]`;
  if (node.kind === 'hop') return node.hop?.to === undefined ? `hop ${node.name}` : `hop → ${node.hop.to}`;
  if (node.kind === 'run') return asRunInput(node, edge) ? "the run's input" : node.name;
  const iteration = node.attributes[semconv.ATTR_FOOTPRINT_ITERATION];
  return iteration === undefined ? node.name : `${node.name} (iteration ${String(iteration)})`;
}

/** `tool_result #2,3 (48 tok) INFORMED_BY`: what part of the input, and the kind of link (none for a part the part table names). */
function edgeLabel(edge: WhyEdge): string {
  if (edge.linkType === 'unknown') return 'a link whose attributes were dropped';
  const tokens = edge.tokens === undefined ? '' : ` (${edge.tokens} tok)`;
  return `${edge.origin}${indexes(edge)}${tokens}${edge.linkType ? ` ${edge.linkType}` : ''}${edge.inferred ? ' (inferred)' : ''}`;
}

function indexes(edge: WhyEdge): string {
  return edge.partIndexes.length > 0 ? ` #${edge.partIndexes.join(',')}` : '';
}

/** Items joined by ", " into lines of at most MAX_LINE_CHARS, the first after `first`, the rest after `next`. */
function wrapped(items: string[], first: string, next: string): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const item of items) {
    if (!empty && line.length + 2 + item.length > MAX_LINE_CHARS) {
      lines.push(`${line},`);
      line = next;
      empty = true;
    }
    line += `${empty ? '' : ', '}${item}`;
    empty = false;
  }
  lines.push(line);
  return lines;
}

function nodeText(node: WhyNode, edge: WhyEdge | undefined): string {
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
    fields.push(asRunInput(node, edge) ? `the run's input: ${node.name}` : node.name);
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
  if (node.partsUnseen) marks.push(`[${node.partsUnseen} parts whose producer is not in these files]`);
  if (node.noPartTable) marks.push('[no part table: what it was sent is not in these files]');
  if (node.notWalked) marks.push('[not walked: node bound]');
  return [...fields, ...marks].join('  ');
}

const MISSING: Record<NonNullable<WhyNode['missing']>, string> = {
  trace_absent: 'its trace is not there (another run not exported here, or not kept)',
  span_absent: 'its trace is there, the span is not (sampled out or lost)',
  trace_not_read: 'one more linked trace than a slice reads',
};
