/**
 * The waterfall marks a streamed model call's first chunk: a mark in its chat span's bar at the time
 * to first chunk the span carries (gen_ai.response.time_to_first_chunk, seconds), and that time after
 * the duration. A call that did not stream, and a value that is no time, get neither.
 */
import { describe, expect, it } from 'vitest';
import { plainLine } from '../../src/cli/terminal.js';
import { FIRST_CHUNK_MARK, renderWaterfall as render, type ViewSpan } from '../../src/cli/waterfall.js';

/** The waterfall's lines as the terminal shows them without colour. */
const renderWaterfall = (...args: Parameters<typeof render>) => render(...args).map(plainLine);

function span(spanId: string, name: string, startMs: number, endMs: number, attributes: Record<string, unknown> = {}, parentSpanId?: string): ViewSpan {
  return { traceId: 't'.repeat(32), spanId, name, startMs, endMs, attributes, events: [], status: 'ok', ...(parentSpanId ? { parentSpanId } : {}) };
}

const run = span('r', 'invoke_agent desk', 0, 1000);

describe('the first-chunk mark', () => {
  it('sits in the chat bar at the time to first chunk, which follows the duration', () => {
    const chat = span('c', 'chat gpt-4o-mini', 100, 900, { 'gen_ai.response.time_to_first_chunk': 0.4 }, 'r');
    const lines = renderWaterfall([run, chat], { width: 20 });
    // 20 columns over 1000 ms: the bar covers columns 2..17, the first chunk (500 ms) column 10.
    expect(lines).toEqual([
      `${'invoke_agent desk'.padEnd(44)} ${'█'.repeat(20)}    1.00 s`,
      `${'  chat gpt-4o-mini'.padEnd(44)} ${'  ' + '█'.repeat(8) + FIRST_CHUNK_MARK + '█'.repeat(7) + '  '} 800.00 ms  first chunk 400.00 ms`,
    ]);
  });

  it('stays inside a bar too short to place it exactly', () => {
    const chat = span('c', 'chat m', 0, 10, { 'gen_ai.response.time_to_first_chunk': 0.009 }, 'r');
    const line = renderWaterfall([run, chat], { width: 20 })[1]!;
    expect(line.slice(45, 65)).toBe(`${FIRST_CHUNK_MARK}${' '.repeat(19)}`);
    expect(line.endsWith('10.00 ms  first chunk 9.00 ms')).toBe(true);
  });

  it('is absent for a call that did not stream and for a value that is no time', () => {
    const plain = span('c', 'chat m', 100, 900, {}, 'r');
    const bogus = span('d', 'chat n', 100, 900, { 'gen_ai.response.time_to_first_chunk': 'soon' }, 'r');
    const lines = renderWaterfall([run, plain, bogus], { width: 20 });
    expect(lines.slice(1)).toEqual([
      `${'  chat m'.padEnd(44)} ${'  ' + '█'.repeat(16) + '  '} 800.00 ms`,
      `${'  chat n'.padEnd(44)} ${'  ' + '█'.repeat(16) + '  '} 800.00 ms`,
    ]);
  });
});
