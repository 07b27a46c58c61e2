/**
 * Renamed attribute values go through the semconv switch with the names (semconvMode.ts): a swarm's
 * decision by its pick function is `pick_fn`, `route_fn` in the v1.41 mode; a value has one
 * spelling, so the both mode writes the current one.
 */
import { describe, expect, it } from 'vitest';
import type { ExportedEvent } from '../../../src/events/index.js';
import type { SemconvMode } from '../../../src/otel/encoding/index.js';
import { eventAttributes } from '../../../src/otel/encoding/spanEventAttributes.js';

const pickDecision = {
  type: 'footprint.composition.route_decided',
  payload: { compositionId: 'desk', kind: 'swarm', chosen: 'billing', rationale: 'r', matched: 'pick_fn', inRoster: true },
  meta: { member: { kind: 'swarm', id: 'desk' }, route: '' },
} as unknown as ExportedEvent;

describe("a swarm decision's matched value under the semconv switch", () => {
  it.each<[SemconvMode, string]>([
    ['current', 'pick_fn'],
    ['v1.41', 'route_fn'],
    ['both', 'pick_fn'],
  ])('%s: %s', (mode, matched) => {
    expect(eventAttributes(pickDecision, pickDecision.type, mode)).toEqual({
      'footprint.composition.route_decided.composition_id': 'desk',
      'footprint.composition.route_decided.kind': 'swarm',
      'footprint.composition.route_decided.chosen': 'billing',
      'footprint.composition.route_decided.rationale': 'r',
      'footprint.composition.route_decided.matched': matched,
      'footprint.composition.route_decided.in_roster': true,
      'footprint.member.kind': 'swarm',
      'footprint.member.id': 'desk',
    });
  });
});
