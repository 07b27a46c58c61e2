/**
 * A trace across services in the waterfall: a span recorded by another service than the root's
 * ends its line with that service, after the duration, so its own name stays whole however deep it
 * sits; spans of the root's service, and spans with no service known, carry none.
 */
import { expect, it } from 'vitest';
import { plainLine } from '../../src/cli/terminal.js';
import { renderWaterfall, type ViewSpan } from '../../src/cli/waterfall.js';

function span(spanId: string, name: string, service: string, startMs: number, endMs: number, parentSpanId?: string): ViewSpan {
  return { traceId: 't'.repeat(32), spanId, name, service, startMs, endMs, attributes: {}, events: [], status: 'ok', ...(parentSpanId ? { parentSpanId } : {}) };
}

it('ends the line of a span from another service with that service, the name kept whole', () => {
  const spans = [
    span('r', 'invoke_workflow desk', 'desk-demo', 0, 1000),
    span('a', 'invoke_agent Billing', 'desk-demo', 100, 900, 'r'),
    span('t', 'ToolCalls', 'desk-demo', 200, 800, 'a'),
    span('e', 'execute_tool lookup_invoice', 'desk-demo', 250, 750, 't'),
    span('c', 'tools/call lookup_invoice', 'desk-demo', 300, 700, 'e'),
    span('s', 'tools/call lookup_invoice', 'footprint-otel-desk-tools', 400, 600, 'c'),
    span('u', 'invoices.lookup', '', 450, 550, 's'),
  ];
  const lines = renderWaterfall(spans, { width: 10 }).map(plainLine);
  expect(lines.map((line) => line.slice(0, 44).trimEnd())).toEqual([
    'invoke_workflow desk',
    '  invoke_agent Billing',
    '    ToolCalls',
    '      execute_tool lookup_invoice',
    '        tools/call lookup_invoice',
    '          tools/call lookup_invoice',
    '            invoices.lookup',
  ]);
  expect(lines.map((line) => line.slice(56).trimStart())).toEqual(['1.00 s', '800.00 ms', '600.00 ms', '500.00 ms', '400.00 ms', '200.00 ms  [footprint-otel-desk-tools]', '100.00 ms']);
});
