/**
 * `footprint-otel --ticket "..." --stream`, as a user runs it: the desk's answer is printed first,
 * chunk by chunk in the order the scripted model streamed it (every read of stdout before the
 * waterfall ends on a chunk boundary of that one answer), then the waterfall of the run, whose chat
 * spans each show the first-chunk mark and the time to first chunk their span carries, then the
 * summary with the p50 / p95 of those times. In load mode (--runs --stream) the summary gives them
 * over every streamed call of every run.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STREAMED_REPLIES } from '../../src/cli/desk/providers.js';
import { percentile } from '../../src/cli/summary.js';
import { FIRST_CHUNK_MARK } from '../../src/cli/waterfall.js';
import { readSpans, type FileSpan } from '../../src/telemetry/index.js';
import { cli, expectedWaterfall, parseSummary, parseWaterfall, tempDir, waterfallBlock, type CliResult } from '../support/cli.js';

const TICKET = 'I was charged twice for invoice INV-1234';
/** What the seeded billing brain answers this ticket (seed 42). */
const ANSWER = 'INV-1234 was charged once; the second line is a pending authorisation.';
const DEMO_HEADER = /^Trace ([0-9a-f]{32}): /;
const ttfcOf = (span: FileSpan) => span.attributes['gen_ai.response.time_to_first_chunk'] as number;

/** The answer as the scripted provider cuts it: whole code points, STREAMED_REPLIES.chunkChars at a time. */
function chunksOf(text: string): string[] {
  const points = Array.from(text);
  const chunks: string[] = [];
  for (let i = 0; i < points.length; i += STREAMED_REPLIES.chunkChars) chunks.push(points.slice(i, i + STREAMED_REPLIES.chunkChars).join(''));
  return chunks;
}

/** The summary's line for these times to first chunk (seconds, as the spans hold them). */
function firstChunkLine(spans: FileSpan[]): string {
  const ms = spans.map((span) => ttfcOf(span) * 1000).sort((a, b) => a - b);
  return `time to first chunk: p50 ${percentile(ms, 0.5).toFixed(1)} ms, p95 ${percentile(ms, 0.95).toFixed(1)} ms over ${ms.length} streamed model calls`;
}

describe('--ticket "..." --stream', () => {
  const temp = tempDir('stream');
  let result: CliResult;
  /** stdout as each read left it, until the waterfall began. */
  const beforeWaterfall: string[] = [];
  let spans: FileSpan[];

  beforeAll(async () => {
    result = await cli(['--ticket', TICKET, '--stream'], {
      cwd: temp.dir,
      onOutput: ({ stdout }) => {
        if (!stdout.includes('Trace ')) beforeWaterfall.push(stdout);
      },
    });
    spans = await readSpans(path.join(temp.dir, 'telemetry'));
  }, 120_000);
  afterAll(() => temp.remove());

  it('prints the answer as it streamed, chunk by chunk in order, before anything else', () => {
    expect(result.code).toBe(0);
    const lead = 'billing ▸ ';
    expect(result.stdout.startsWith(`${lead}${ANSWER}\nTrace `)).toBe(true);
    // Each read ends where a chunk ended: after the lead, after whole chunks, or after the closing newline.
    const chunks = chunksOf(ANSWER);
    const boundaries = new Set([lead, ...chunks.map((_, i) => lead + chunks.slice(0, i + 1).join('')), `${lead}${ANSWER}\n`]);
    expect(beforeWaterfall.length).toBeGreaterThan(0);
    expect(beforeWaterfall.filter((text) => !boundaries.has(text))).toEqual([]);
    expect(result.stdout).not.toContain('\nanswer: ');
  });

  it('then shows the waterfall, each chat span with its first-chunk mark and time', () => {
    const { traceId, lines } = waterfallBlock(result.stdout, DEMO_HEADER);
    expect(parseWaterfall(lines)).toEqual(expectedWaterfall(spans, traceId));
    const chats = spans.filter((span) => span.traceId === traceId && span.name.startsWith('chat '));
    // The router's call to choose billing, billing's tool call and answer, the router's call that ends the swarm.
    expect(chats.map((span) => [span.name, span.attributes['gen_ai.request.stream']])).toEqual([
      ['chat gpt-4o-mini', true],
      ['chat gpt-4o-mini', true],
      ['chat gpt-4o-mini', true],
      ['chat gpt-4o-mini', true],
    ]);
    const chatLines = lines.filter((line) => line.trimStart().startsWith('chat '));
    expect(chatLines.map((line) => [line.includes(FIRST_CHUNK_MARK), /first chunk (\d+\.\d{2}) ms/.exec(line)?.[1]])).toEqual(
      chats.map((span) => [true, (ttfcOf(span) * 1000).toFixed(2)]),
    );
  });

  it('ends with a summary that gives the p50 and p95 time to first chunk', () => {
    expect(parseSummary(result.stdout)).toMatchObject({ runs: 1, outcomes: { ok: 1 }, llmCalls: 4 });
    expect(result.stdout).toContain(`\n${firstChunkLine(spans.filter((span) => span.name.startsWith('chat ')))}\n`);
  });
});

describe('load mode with --stream', () => {
  const temp = tempDir('stream-load');
  let result: CliResult;
  let spans: FileSpan[];

  beforeAll(async () => {
    result = await cli(['--runs', '6', '--concurrency', '3', '--stream'], { cwd: temp.dir });
    spans = await readSpans(path.join(temp.dir, 'telemetry'));
  }, 120_000);
  afterAll(() => temp.remove());

  it('streams every model call of every run and gives their p50 / p95 time to first chunk', () => {
    expect(result.code).toBe(0);
    expect(parseSummary(result.stdout)).toMatchObject({ runs: 6, outcomes: { ok: 6 } });
    expect(result.stdout).toContain('\nSupport desk (scripted models, seed 42, every run streamed):\n');
    const chats = spans.filter((span) => span.name.startsWith('chat '));
    expect(chats.length).toBe(parseSummary(result.stdout).llmCalls);
    expect(chats.filter((span) => span.attributes['gen_ai.request.stream'] !== true)).toEqual([]);
    // a call that failed before its first chunk (the tech provider's scripted outage) has no time to first chunk
    const answered = chats.filter((span) => span.attributes['error.type'] === undefined);
    expect(result.stdout).toContain(`\n${firstChunkLine(answered)}\n`);
    // Only a single ticket's answer is printed as it streams.
    expect(result.stdout).toMatch(/^Trace [0-9a-f]{32}: /);
  });
});
