/**
 * A span event's attribute names (spanEventAttributes.ts): payload fields in snake case under the
 * event's name, a number of milliseconds in seconds under its duration name (`durationMs` ->
 * `duration`, `waitedMs` -> `waited_duration`), a `…Ms` field that holds no number under its plain
 * name, nested fields named the same way at every depth, and the emitting member and route beside.
 */
import { describe, expect, it } from 'vitest';
import type { ExportedEvent } from '../../../src/events/index.js';
import { eventAttributes } from '../../../src/otel/encoding/spanEventAttributes.js';

const event = {
  type: 'footprint.loop_guard.trip',
  payload: {
    agentId: 'support',
    durationMs: 1500,
    waitedMs: 250,
    toolDurationMs: 40,
    timeoutMs: 'never',
    costSinceLoopUsd: 0.25,
    window: { spanMs: 2000, skillIds: ['a', 'b'] },
  },
  meta: { member: { kind: 'agent', id: 'support' }, route: 'desk>support' },
} as unknown as ExportedEvent;

describe('span event attribute names', () => {
  it('snake-cases fields, records milliseconds as seconds under duration names, at every depth', () => {
    expect(eventAttributes(event)).toEqual({
      'footprint.loop_guard.trip.agent_id': 'support',
      'footprint.loop_guard.trip.duration': 1.5,
      'footprint.loop_guard.trip.waited_duration': 0.25,
      'footprint.loop_guard.trip.tool_duration': 0.04,
      'footprint.loop_guard.trip.timeout_ms': 'never',
      'footprint.loop_guard.trip.cost_since_loop_usd': 0.25,
      'footprint.loop_guard.trip.window.span_duration': 2,
      'footprint.loop_guard.trip.window.skill_ids': ['a', 'b'],
      'footprint.member.kind': 'agent',
      'footprint.member.id': 'support',
      'footprint.route': 'desk>support',
    });
  });

  it('names the same fields the same way under another event name (the v1.41 spelling of a renamed event)', () => {
    const attributes = eventAttributes(event, 'footprint.agent.loop_trip');
    expect(attributes['footprint.agent.loop_trip.duration']).toBe(1.5);
    expect(attributes['footprint.agent.loop_trip.timeout_ms']).toBe('never');
    expect(Object.keys(attributes).filter((key) => key.startsWith('footprint.loop_guard.'))).toEqual([]);
  });
});
