/**
 * What bench/lineage.ts checks before it times anything: one reference turn of each build in each
 * mode, traced into the real SDK's InMemorySpanExporter, with lineage's output counted (llm_start's
 * parts, span links, `footprint.lineage.*` attributes on spans and links) beside what must not differ
 * (the answer, the spans by name). The shipped build must emit lineage and the cut build none, or
 * the benchmark would time two identical builds (or two different traces).
 */
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Build, Mode } from './interleaved.js';
import { MESSAGE, referenceAgent } from './scenario.js';

export interface LineageCount {
  answer: string;
  /** The spans' names, sorted, one line each (empty untraced). */
  spans: string[];
  /** Parts listed by the turn's llm_start events. */
  parts: number;
  links: number;
  /** `footprint.lineage.*` and `gen_ai.attribution.*` attributes, on spans and on their links. */
  lineageAttributes: number;
}

/** Lineage's attributes, on spans and on links: what the cut build must not emit, and what bench/lineageSdkFloor.ts takes off. */
export const LINEAGE_ATTRIBUTE = /^(footprint\.lineage\.|gen_ai\.attribution\.)/;
const countLineage = (attributes: Record<string, unknown>) => Object.keys(attributes).filter((key) => LINEAGE_ATTRIBUTE.test(key)).length;

/** One reference turn of `build` in `mode`, on a fresh agent of the build's (a listener on the timed ones would be timed too). */
export async function countOneTurn(build: Pick<Build, 'm'>, mode: Mode): Promise<LineageCount> {
  const agent = referenceAgent(build.m);
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  let parts = 0;
  const unsubscribe = agent.on('footprint.call.llm_start', (event) => {
    parts += event.payload.parts.length;
  });
  const undo = mode === 'untraced' ? undefined : build.m.registerInstrument(build.m.tracingInstrument({ tracerProvider: provider, detail: mode }));
  try {
    const { text } = await agent.run(MESSAGE);
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans();
    return {
      answer: text,
      spans: spans.map((span) => span.name).sort(),
      parts,
      links: spans.reduce((sum, span) => sum + span.links.length, 0),
      lineageAttributes: spans.reduce((sum, span) => sum + countLineage(span.attributes) + span.links.reduce((n, link) => n + countLineage(link.attributes ?? {}), 0), 0),
    };
  } finally {
    undo?.();
    unsubscribe();
    await provider.shutdown();
  }
}

/** What each build emitted in one turn per mode, after checking that the shipped build emits lineage and the cut one none; throws otherwise. */
export async function checkLineageCut(shipped: Pick<Build, 'm'>, cut: Pick<Build, 'm'>, modes: readonly Mode[]): Promise<Record<Mode, { shipped: LineageCount; cut: LineageCount }>> {
  const counts = {} as Record<Mode, { shipped: LineageCount; cut: LineageCount }>;
  const wrong: string[] = [];
  for (const mode of modes) {
    const s = await countOneTurn(shipped, mode);
    const c = await countOneTurn(cut, mode);
    counts[mode] = { shipped: s, cut: c };
    if (s.answer !== c.answer) wrong.push(`${mode}: the builds answered differently (${JSON.stringify(s.answer)}, ${JSON.stringify(c.answer)})`);
    if (s.spans.join('\n') !== c.spans.join('\n')) wrong.push(`${mode}: the builds emitted different spans (${s.spans.length}, ${c.spans.length})`);
    if (s.parts === 0) wrong.push(`${mode}: the shipped build listed no input parts`);
    if (c.parts !== 0) wrong.push(`${mode}: the cut build listed ${c.parts} input parts`);
    if (c.links !== 0 || c.lineageAttributes !== 0) wrong.push(`${mode}: the cut build emitted ${c.links} links, ${c.lineageAttributes} lineage attributes`);
    if (mode !== 'untraced' && (s.links === 0 || s.lineageAttributes === 0)) wrong.push(`${mode}: the shipped build emitted ${s.links} links, ${s.lineageAttributes} lineage attributes`);
  }
  if (wrong.length > 0) throw new Error(`bench/lineage.ts: the cut does not cut lineage alone:\n  ${wrong.join('\n  ')}`);
  return counts;
}
