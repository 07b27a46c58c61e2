/**
 * `view` on hostile or foreign OTLP JSON: a parent cycle, a span that is its own parent, a
 * 50,000-deep chain, one line of 200,000 spans, a span without endTimeUnixNano, a trace fragment
 * whose root was lost, and a foreign file's enum-name status ("STATUS_CODE_ERROR"). It never crashes:
 * the tree is drawn without recursion and within its limits, unusable spans are reported with file
 * and line, fragments are marked and never taken for the latest run, nor is a trace without a run
 * while one with a run is stored.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { viewCommand } from '../../src/cli/view.js';
import { plainLine } from '../../src/cli/terminal.js';
import { MAX_DEPTH, MAX_LINES } from '../../src/cli/waterfall.js';
import { cli, tempDir } from '../support/cli.js';

interface SpanSpec {
  trace?: string;
  id: string;
  parent?: string;
  name?: string;
  start?: number;
  end?: number | null;
  status?: { code: number | string; message?: string };
  attributes?: Record<string, string>;
}

const TRACE = 'a'.repeat(32);
const ms = (n: number) => String(BigInt(1_700_000_000_000 + n) * 1_000_000n);

function otlpSpan(spec: SpanSpec): Record<string, unknown> {
  return {
    traceId: spec.trace ?? TRACE,
    spanId: spec.id,
    ...(spec.parent ? { parentSpanId: spec.parent } : {}),
    name: spec.name ?? `span ${spec.id}`,
    kind: 1,
    startTimeUnixNano: ms(spec.start ?? 0),
    ...(spec.end === null ? {} : { endTimeUnixNano: ms(spec.end ?? (spec.start ?? 0) + 1) }),
    ...(spec.status ? { status: spec.status } : {}),
    ...(spec.attributes ? { attributes: Object.entries(spec.attributes).map(([key, value]) => ({ key, value: { stringValue: value } })) } : {}),
  };
}

const line = (spans: SpanSpec[]) => JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'x' }, spans: spans.map(otlpSpan) }] }] });

describe('view on hostile span trees', () => {
  const temp = tempDir('hostile');
  afterAll(() => temp.remove());
  let n = 0;
  const fileWith = (...lines: string[]) => {
    const file = path.join(temp.dir, `case-${++n}.jsonl`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    return file;
  };
  const view = async (file: string, extra: { trace?: string; list?: boolean } = {}) => {
    const result = await viewCommand({ path: file, trips: false, list: false, ...extra });
    return { ...result, lines: result.lines.map(plainLine) };
  };

  it('draws a parent cycle and a span that is its own parent flat, under a note, once each', async () => {
    const file = fileWith(
      line([
        { id: 'root', name: 'root' },
        { id: 'c1', parent: 'c2', name: 'cycle one' },
        { id: 'c2', parent: 'c1', name: 'cycle two' },
        { id: 'me', parent: 'me', name: 'own parent' },
      ]),
    );
    const { lines, warnings } = await view(file);
    expect(warnings).toEqual([]);
    expect(lines[0]).toBe(`trace ${TRACE} (4 spans) from ${file}`);
    const names = lines.slice(1).map((l) => l.trim().split(/\s{2,}/)[0]);
    // the self-parented span has no parent inside the trace: a root of its own
    expect(names).toEqual(['root', 'own parent', '(2 span(s) no root leads to — a parent cycle or a span that is its own parent — drawn flat:)', 'cycle one', 'cycle two']);
  });

  it('draws a 50,000-deep chain without recursion: at most MAX_LINES spans, indentation capped at MAX_DEPTH', async () => {
    const depth = 50_000;
    const chain = Array.from({ length: depth }, (_, i) => ({ id: `s${i}`, parent: i === 0 ? undefined : `s${i - 1}`, start: i, end: depth + 1 }));
    const file = fileWith(line(chain));
    const { lines } = await view(file);
    expect(lines[0]).toBe(`trace ${TRACE} (${depth} spans) from ${file}`);
    expect(lines).toHaveLength(1 + MAX_LINES + 1);
    expect(lines.at(-1)).toBe(`(${depth - MAX_LINES} more span(s) not drawn: a waterfall shows at most ${MAX_LINES})`);
    const deepest = lines[MAX_LINES]!;
    expect(deepest.startsWith(`${'  '.repeat(MAX_DEPTH)}…span s${MAX_LINES - 1}`)).toBe(true);
  });

  it('reads one line of 200,000 spans', async () => {
    const wide = Array.from({ length: 200_000 }, (_, i) => ({ id: `w${i}`, parent: i === 0 ? undefined : 'w0', start: i % 1000 }));
    const file = fileWith(line(wide));
    const { lines } = await view(file);
    expect(lines[0]).toBe(`trace ${TRACE} (200000 spans) from ${file}`);
    expect(lines).toHaveLength(1 + MAX_LINES + 1);
  }, 60_000);

  it('skips a span without endTimeUnixNano and says where it was; the rest of the trace is shown', async () => {
    const file = fileWith(line([{ id: 'root', name: 'root' }]), line([{ id: 'child', parent: 'root', name: 'child' }, { id: 'open', parent: 'root', end: null }]));
    const { lines, warnings } = await view(file);
    expect(lines[0]).toBe(`trace ${TRACE} (2 spans) from ${file}`);
    expect(warnings).toEqual([`footprint-otel: 1 span(s) missing a required field skipped; first at ${file}:2: span 2 of scope "x" has no valid endTimeUnixNano`]);
  });

  it('marks a trace whose root span is missing as a fragment, and never shows it as the latest run', async () => {
    const fragment = 'f'.repeat(32);
    const file = fileWith(line([{ id: 'r', name: 'whole run', start: 0, end: 5 }]), line([{ trace: fragment, id: 'x', parent: 'lost-root', start: 10 }]));
    expect((await view(file)).lines[0]).toBe(`trace ${TRACE} (1 spans) from ${file}`);
    const list = (await view(file, { list: true })).lines;
    expect(list).toHaveLength(2);
    expect(list[1]).toBe(`${fragment}  ${new Date(1_700_000_000_010).toISOString()}  (fragment: root span missing)      1 span(s)`);
    expect((await view(file, { trace: 'fff' })).lines[0]).toBe(`trace ${fragment} (1 spans, a fragment: its root span is missing) from ${file}`);
  });

  it('takes the latest trace that holds a run, not a later one that holds none (an MCP connection listing its tools)', async () => {
    const run = 'b'.repeat(32);
    const first = 'c'.repeat(32);
    const listing = 'd'.repeat(32);
    const file = fileWith(
      line([{ trace: first, id: 'a1', name: 'invoke_agent Desk', start: 0, end: 4, attributes: { 'footprint.run.id': 'run_1' } }]),
      line([{ trace: run, id: 'w', name: 'invoke_workflow desk', start: 10, end: 40 }, { trace: run, id: 'a2', parent: 'w', name: 'invoke_agent Billing', start: 11, end: 39, attributes: { 'footprint.run.id': 'run_2' } }]),
      line([{ trace: listing, id: 'l', name: 'tools/list', start: 50, end: 52 }]),
    );
    expect((await view(file)).lines[0]).toBe(`trace ${run} (2 spans) from ${file}`);
    // still listed, and shown when asked for
    expect((await view(file, { list: true })).lines.map((l) => l.split(' ')[0])).toEqual([first, run, listing]);
    expect((await view(file, { trace: 'ddd' })).lines[0]).toBe(`trace ${listing} (1 spans) from ${file}`);
  });

  it('on a file of fragments only, says so, and what to do, instead of "no run with a trip"', async () => {
    const file = fileWith(line([{ trace: 'f'.repeat(32), id: 'x', parent: 'lost-root' }]), line([{ trace: 'e'.repeat(32), id: 'y', parent: 'lost-root' }]));
    await expect(view(file)).rejects.toThrow(
      `no complete run in ${file}: its 2 trace(s) are fragments, their root span missing (the process that wrote them ended first); --list lists them, --trace ID shows one`,
    );
    const whole = fileWith(line([{ id: 'r', name: 'whole run' }]));
    await expect(viewCommand({ path: whole, trips: true, list: false })).rejects.toThrow(
      `no run with a loop-guard trip in ${whole} (1 complete run(s) stored); --list lists them`,
    );
  });

  it('shows ERROR for both status encodings: 2 and "STATUS_CODE_ERROR"', async () => {
    const file = fileWith(
      line([
        { id: 'root', name: 'root' },
        { id: 'n', parent: 'root', name: 'numeric', status: { code: 2, message: 'boom' } },
        { id: 'e', parent: 'root', name: 'enum', status: { code: 'STATUS_CODE_ERROR', message: 'bang' } },
        { id: 'o', parent: 'root', name: 'ok', status: { code: 'STATUS_CODE_OK' } },
      ]),
    );
    const { lines } = await view(file);
    expect(lines.find((l) => l.includes('numeric'))).toMatch(/ERROR: boom$/);
    expect(lines.find((l) => l.includes('enum'))).toMatch(/ERROR: bang$/);
    expect(lines.find((l) => l.trimStart().startsWith('ok'))).not.toContain('ERROR');
  });

  it('on the command line: exit 0, the waterfall on stdout, what was skipped on stderr with its line', async () => {
    const file = path.join(temp.dir, 'torn.jsonl');
    writeFileSync(file, `${line([{ id: 'root', name: 'root' }])}\nnot json at all\n${line([{ id: 'late', parent: 'root' }]).slice(0, 30)}`);
    const result = await cli(['view', file], { cwd: temp.dir });
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe(`trace ${TRACE} (1 spans) from ${file}`);
    const [notJson, torn, ...rest] = result.stderr.trimEnd().split('\n');
    expect(notJson!.startsWith(`footprint-otel: 1 line(s) that are not JSON skipped; first at ${file}:2: not OTLP JSON: `)).toBe(true);
    expect(torn).toBe(`footprint-otel: 1 torn last line(s) skipped; first at ${file}:3: torn last line (30 bytes, a writer was stopped mid-write)`);
    expect(rest).toEqual([]);
  }, 60_000);
});
