/**
 * `why --json`: the slice (whyGraph.ts) as JSON, two-space indented, one line per line of text. A
 * string from a file may hold any character; JSON.stringify escapes C0 controls, and here DEL, the
 * C1 controls, the line separators and the bidirectional controls are escaped too (`\u009b`), so the
 * output is valid JSON that nothing in it can make a terminal act on.
 */
import type { WhyGraph } from './whyGraph.js';

const UNSAFE_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function jsonLines(graph: WhyGraph): string[] {
  const text = JSON.stringify(graph, null, 2).replace(UNSAFE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return text.split('\n');
}
