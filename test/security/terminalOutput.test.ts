/**
 * Nothing from outside reaches a terminal as a control sequence. Telemetry files whose agent, model
 * and tool names, status messages and event attributes hold ANSI and OSC sequences (clear screen,
 * window title, hyperlink), carriage returns, newlines and a bidirectional override are viewed with
 * `view` (the waterfall and --list; colours are checked on the rendered line), and the demo runs a hostile ticket in a
 * folder whose name holds an escape sequence: every byte they print is text, with each control
 * character shown escaped, and the only escape sequences are the waterfall's own colours.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { escapeControls, escapeStreamed, renderLine } from '../../src/cli/terminal.js';
import { cli, tempDir } from '../support/cli.js';

const ESC = '\u001b';
const TITLE = `${ESC}]0;pwned\u0007`;
const CLEAR = `${ESC}[2J${ESC}[H`;
const LINK = `${ESC}]8;;http://127.0.0.1/evil${ESC}\\click${ESC}]8;;${ESC}\\`;
const FORGED = '\r\nfootprint-otel: all good';
const BIDI = '\u202etxt.exe';

/** Our colours only: SGR 31/33/36 and the reset. */
const OUR_COLOURS = /\u001b\[(?:31|33|36|0)m/g;
/** What must never be printed: C0 controls but newline, DEL, C1 controls, bidi controls. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const TRACE = 'b'.repeat(32);
const ns = (ms: number) => String(BigInt(1_700_000_000_000 + ms) * 1_000_000n);
const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });

function hostileTrace(): string {
  const span = (spanId: string, parentSpanId: string | undefined, name: string, extra: Record<string, unknown> = {}) => ({
    traceId: TRACE,
    spanId,
    ...(parentSpanId ? { parentSpanId } : {}),
    name,
    kind: 1,
    startTimeUnixNano: ns(0),
    endTimeUnixNano: ns(10),
    ...extra,
  });
  const spans = [
    span('r1', undefined, `invoke_agent ${TITLE}desk`, { attributes: [attr('footprint.run.outcome', `ok${CLEAR}`), attr('footprint.trip.kinds', `ping_pong${LINK}`)] }),
    span('c1', 'r1', `chat ${CLEAR}gpt-${BIDI}`, { attributes: [{ key: 'footprint.cost.usd', value: { doubleValue: 0.001 } }] }),
    span('t1', 'r1', `execute_tool ${LINK}`, { status: { code: 2, message: `boom${FORGED}${TITLE}` } }),
    span('s1', 'r1', 'stage', {
      events: [{ name: 'footprint.loop_guard.trip', timeUnixNano: ns(5), attributes: [attr('footprint.loop_guard.trip.kind', `ping_pong${CLEAR}`), attr('footprint.loop_guard.trip.skills', `a${FORGED}`)] }],
    }),
  ];
  return JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'x' }, spans }] }] });
}

function expectOnlyText(output: string, allowColours = false): void {
  const text = allowColours ? output.replace(OUR_COLOURS, '') : output;
  expect(text.match(CONTROL)?.[0]).toBeUndefined();
}

describe('the terminal boundary', () => {
  it('escapes every control character and keeps text as it is', () => {
    expect(escapeControls(`a${TITLE}b${FORGED}${BIDI}\u0085é☃`)).toBe('a\\x1b]0;pwned\\x07b\\r\\nfootprint-otel: all good\\u202etxt.exe\\x85é☃');
  });

  it('keeps a streamed reply\'s line breaks and escapes every other control character', () => {
    expect(escapeStreamed(`one\ntwo${TITLE}\r${BIDI}`)).toBe('one\ntwo\\x1b]0;pwned\\x07\\r\\u202etxt.exe');
  });

  it('lets through only its own colours, and only when colour is on', () => {
    const line = [{ text: `bar${CLEAR}`, color: 'red' as const }, { text: ` ${TITLE}` }];
    expect(renderLine(line, true)).toBe(`${ESC}[31mbar\\x1b[2J\\x1b[H${ESC}[0m \\x1b]0;pwned\\x07`);
    expect(renderLine(line, false)).toBe('bar\\x1b[2J\\x1b[H \\x1b]0;pwned\\x07');
  });
});

describe('footprint-otel on hostile telemetry and input', () => {
  const temp = tempDir('terminal');
  afterAll(() => temp.remove());
  const file = path.join(temp.dir, 'traces.jsonl');
  writeFileSync(file, `${hostileTrace()}\n`);

  it('view prints the waterfall with every control character escaped', async () => {
    const result = await cli(['view', file], { cwd: temp.dir });
    expect(result.code).toBe(0);
    expectOnlyText(result.stdout);
    expectOnlyText(result.stderr);
    expect(result.stdout).toContain('invoke_agent \\x1b]0;pwned\\x07desk');
    expect(result.stdout).toContain('ERROR: boom\\r\\nfootprint-otel: all good\\x1b]0;pwned\\x07');
    expect(result.stdout).toContain('kind=ping_pong\\x1b[2J\\x1b[H');
    expect(result.stdout.split('\n').filter((l) => l.startsWith('footprint-otel'))).toEqual([]);
  }, 60_000);

  it('view --list prints the stored runs with every control character escaped', async () => {
    const result = await cli(['view', file, '--list'], { cwd: temp.dir });
    expect(result.code).toBe(0);
    expectOnlyText(result.stdout);
    expect(result.stdout).toContain('invoke_agent \\x1b]0;pwned\\x07desk');
  }, 60_000);

  it('the demo, run on a hostile ticket in a folder whose name holds an escape sequence, prints only text', async () => {
    const hostileDir = path.join(temp.dir, `work${ESC}[2J`);
    mkdirSync(hostileDir);
    const result = await cli(['--ticket', `refund ${TITLE}${CLEAR}${FORGED}`], { cwd: hostileDir });
    expect(result.code).toBe(0);
    expectOnlyText(result.stdout);
    expectOnlyText(result.stderr);
    expect(result.stdout).toContain('work\\x1b[2J/telemetry');
  }, 90_000);
});
