/**
 * The build bench/lineage.ts times the shipped one against: a copy of a compiled build (dist/, or the
 * tests' compiled sources) with lineage (issue #36) cut out, made again on every run so it cannot go
 * stale. Each of lineage's entry points gets a first statement that returns what "no lineage" would:
 *
 * - the runtime: `callParts` returns no parts (llm_start.parts is an empty array: no part is measured,
 *   fingerprinted or listed); the origin bookkeeping of run/lineage.ts keeps none (appendWithOrigins
 *   and appendFrom append the messages alone, originsOf gives an empty list, keepOrigin keeps
 *   nothing, originAt finds nothing, whileStartingIn just calls);
 * - the bridge: `RunLineage` links and records nothing (chat gives no links, chatStarted puts no part
 *   arrays on the span, tool gives no CAUSED_BY_GENERATION link, answerAttributes none; chatStarted,
 *   answered, toolStarted and hop keep no producer).
 *
 * Left in, so the cut build still pays them: the callers' origin objects (one literal per append),
 * llm_start's empty `parts` array, the calls into the entry points themselves, a hop's id, a tool
 * call's producer record, and the RunLineage each traced run constructs (its empty maps). The cut
 * build is thus a little dearer than a build that never had lineage, and shipped / cut a lower bound
 * of what lineage costs. An entry point no longer found as written here fails the benchmark (its
 * header must appear exactly once): a cut that silently missed would time two identical builds.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface Cut {
  /** The compiled file, relative to the build's root. */
  file: string;
  /** The entry point's first line as tsc writes it. */
  header: string;
  /** The statement put first in its body. */
  body: string;
}

const RUNTIME = 'runtime/run/lineage.js';
const BRIDGE = 'otel/genai/lineage.js';

export const LINEAGE_CUT: readonly Cut[] = [
  { file: 'runtime/agent/callParts.js', header: 'export function callParts(turn, config, { request, origins, dropped }, key) {', body: 'return [];' },
  { file: RUNTIME, header: 'export function appendWithOrigins(store, key, messages, origins) {', body: 'store.append(key, ...messages); return;' },
  { file: RUNTIME, header: 'export function appendFrom(store, key, origin, ...messages) {', body: 'store.append(key, ...messages); return;' },
  { file: RUNTIME, header: 'export function originsOf(store, key, runId) {', body: 'return [];' },
  { file: RUNTIME, header: 'export function keepOrigin(store, key, origin) {', body: 'return;' },
  { file: RUNTIME, header: 'export function originAt(store, key) {', body: 'return undefined;' },
  { file: RUNTIME, header: 'export function whileStartingIn(producer, call) {', body: 'return call();' },
  { file: BRIDGE, header: '    chat(parts, attributes, parent) {', body: 'return [];' },
  { file: BRIDGE, header: '    chatStarted(callId, agent, span) {', body: 'return;' },
  { file: BRIDGE, header: '    answered(agent, callId, toolCalls) {', body: 'return;' },
  { file: BRIDGE, header: '    tool(agent, toolCallId) {', body: 'return undefined;' },
  { file: BRIDGE, header: '    toolStarted(producer, context) {', body: 'return;' },
  { file: BRIDGE, header: '    hop(hopId, context, standIn) {', body: 'return;' },
  { file: BRIDGE, header: '    answerAttributes(callId) {', body: 'return undefined;' },
];

/** Copies the compiled build in `from` to `to` (inside the repository, so its imports resolve) and cuts lineage out of the copy. */
export function makeLineageCut(from: string, to: string): void {
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true });
  for (const { file, header, body } of LINEAGE_CUT) {
    const path = join(to, file);
    const source = readFileSync(path, 'utf8');
    const line = `${header}\n`;
    const at = source.indexOf(line);
    if (at < 0 || source.indexOf(line, at + 1) >= 0) {
      throw new Error(`bench/lineageCut.ts: "${header.trim()}" is not found exactly once in ${file} of ${from}: lineage's entry points changed, update LINEAGE_CUT`);
    }
    const end = at + header.length;
    writeFileSync(path, `${source.slice(0, end)} ${body}${source.slice(end)}`);
  }
}
