/**
 * What user code throws is content. A tool's `throw new Error('db password=…')`, a custom provider's
 * throw, a listener's, a Parallel branch's and a plain chart stage's all run under startTelemetry()
 * (the real NodeSDK, the OTLP-JSON file exporter). With content capture off the secret appears
 * nowhere in the trace files: each failure is its class and type and a fixed description, its stack
 * frames only (never a line of the message that looks like one); the model still gets the tool's text. With capture on, the text is on the spans.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FlowChartExecutor, flowChart } from 'footprintjs';
import { afterEach, describe, expect, it } from 'vitest';
import { messageText, Agent, Parallel, RunFailedError, scripted, traceExecutor, type LLMProvider, type LLMRequest } from '../../src/index.js';
import { quietLogger } from '../../src/runtime/run/index.js';
import { readSpans, startTelemetry, type FileSpan } from '../../src/telemetry/index.js';

const SECRET = 'db password=hunter2-7f3a';
const WITHHELD = 'message not recorded: content capture is off';

afterEach(() => {
  process.removeAllListeners('warning');
});

/** Everything that throws the secret, run once under startTelemetry; the trace files' text and spans. */
async function runAll(captureContent: boolean): Promise<{ text: string; spans: FileSpan[]; toolTextSeenByModel: string; warnings: string[] }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fp-thrown-'));
  const warnings: string[] = [];
  process.on('warning', (warning) => warnings.push(warning.message));
  const telemetry = startTelemetry({ fileDirectory: dir, captureContent, handleExit: false, traceDetail: 'full' });

  // a tool that throws: the model gets the text, the trace does not
  let toolTextSeenByModel = '';
  const reply = (request: LLMRequest) => {
    const tool = request.messages.find((m) => m.role === 'tool');
    if (!tool) return { toolCalls: [{ id: 'c1', name: 'lookup', args: {} }] };
    toolTextSeenByModel = messageText(tool.content);
    return 'The lookup failed.';
  };
  const agent = Agent.create({ provider: scripted({ replies: reply }), model: 'm-small', id: 'desk' })
    .tool({ name: 'lookup', description: 'Looks up', inputSchema: { type: 'object' }, execute: () => { throw new Error(SECRET); } })
    .build();
  agent.on('footprint.agent.turn_end', () => {
    throw new TypeError(`listener: ${SECRET}`);
  });
  expect((await agent.run('Look it up')).text).toBe('The lookup failed.');

  // a custom provider that throws: the run fails
  const custom: LLMProvider = { name: 'custom', complete: async () => { throw new Error(`provider: ${SECRET}`); } };
  const failing = Agent.create({ provider: custom, model: 'm-custom', id: 'custom' }).build();
  await expect(failing.run('hi')).rejects.toBeInstanceOf(RunFailedError);

  // a Parallel branch whose member fails
  const both = Parallel.create({ id: 'both' })
    .branch('ok', Agent.create({ provider: scripted({ replies: ['fine'] }), model: 'm-small', id: 'ok' }).build())
    .branch('bad', Agent.create({ provider: custom, model: 'm-custom', id: 'bad' }).build())
    .merge((results) => results.map((r) => r.status).join(','))
    .build();
  expect((await both.run('go')).text).toBe('ok,error');

  // a plain chart's stage that throws, quoting a text whose second line looks like a stack frame
  const chart = flowChart('Throw', () => {
    throw new RangeError(`stage: ${SECRET}\n    at ${SECRET} (row 3)`);
  }, 'throw')
    .setLogger(quietLogger)
    .build();
  await expect(traceExecutor(new FlowChartExecutor(chart), { name: 'plain' }).run()).rejects.toThrow(RangeError);

  await telemetry.shutdown();
  const files = readdirSync(dir).map((name) => readFileSync(path.join(dir, name), 'utf8'));
  return { text: files.join('\n'), spans: await readSpans(dir), toolTextSeenByModel, warnings };
}

const named = (spans: FileSpan[], name: string) => spans.filter((span) => span.name === name);
const exceptions = (span: FileSpan) => span.events.filter((event) => event.name === 'exception').map((event) => event.attributes);

describe('with content capture off', () => {
  it('no trace or metric file holds the secret, and the model still got the tool\'s text', async () => {
    const { text, spans, toolTextSeenByModel, warnings } = await runAll(false);
    expect(toolTextSeenByModel).toBe(`Tool "lookup" failed: Error: ${SECRET}`);
    expect(warnings).toEqual([`footprint-otel: a listener for footprint.agent.turn_end threw and was isolated: TypeError: listener: ${SECRET}`]);
    expect(spans.length).toBeGreaterThan(10);
    expect(text.includes('hunter2')).toBe(false);
  });

  it('a failure is its class and type, a fixed description, and its stack frames only', async () => {
    const { spans } = await runAll(false);
    const [tool] = named(spans, 'execute_tool lookup');
    expect([tool!.status, tool!.attributes['error.type'], exceptions(tool!)]).toEqual([
      { code: 2, message: WITHHELD },
      'Error',
      [{ 'exception.type': 'Error', 'exception.message': WITHHELD }],
    ]);
    const [chat] = named(spans, 'chat m-custom');
    expect([chat!.status, exceptions(chat!)]).toEqual([
      { code: 2, message: WITHHELD },
      [{ 'exception.type': 'Error', 'exception.message': WITHHELD }],
    ]);
    const [plain] = named(spans, 'Throw');
    const [thrown] = exceptions(plain!);
    expect([plain!.status, thrown!['exception.type'], thrown!['exception.message']]).toEqual([{ code: 2, message: WITHHELD }, 'RangeError', WITHHELD]);
    const stack = String(thrown!['exception.stacktrace']).split('\n');
    expect(stack[0]).toBe(`RangeError: ${WITHHELD}`);
    expect(stack.slice(1).every((line) => /^\s+at /.test(line))).toBe(true);
    expect(stack.length).toBeGreaterThan(1);
  });
});

describe('with content capture on', () => {
  it('the thrown text is on the spans', async () => {
    const { text, spans } = await runAll(true);
    const [tool] = named(spans, 'execute_tool lookup');
    expect(tool!.status).toEqual({ code: 2, message: `Error: ${SECRET}` });
    const [plain] = named(spans, 'Throw');
    expect(plain!.status).toEqual({ code: 2, message: `stage: ${SECRET}\n    at ${SECRET} (row 3)` });
    expect(text.includes(`provider: ${SECRET}`)).toBe(true);
  });
});
