/**
 * The spec asks instrumentations to document the error.type values they report. This runs the
 * desk and the failing outcomes, collects every error.type the spans carry, and checks that the
 * reference page's generated section (docs/reference.md) lists each one (and names the semconv version), and that the
 * table it is generated from (src/runtime/providers/errorTypeDocs.ts) covers every fixed value.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_TYPE_DOCS } from '../../src/runtime/providers/errorTypeDocs.js';
import { FIXED_ERROR_TYPES } from '../../src/runtime/run/errorTypes.js';
import { startSemconvTelemetry, type SemconvTelemetry } from '../support/semconv/index.js';
import { runDesk } from './scenarios/desk.js';
import * as runs from './scenarios/outcomes.js';

const PAGE = readFileSync(new URL('../../docs/reference.md', import.meta.url), 'utf8');
const REFERENCE = PAGE.slice(PAGE.indexOf('<!-- reference:start -->'), PAGE.indexOf('<!-- reference:end -->'));

describe('the error.type values the project reports', () => {
  let telemetry: SemconvTelemetry;
  let reported: string[];

  beforeAll(async () => {
    telemetry = startSemconvTelemetry({});
    await runDesk();
    await runs.failed();
    await runs.cancelled();
    reported = [...new Set(telemetry.spans().flatMap((span) => (span.attributes['error.type'] === undefined ? [] : [String(span.attributes['error.type'])])))].sort();
  });

  afterAll(async () => {
    await telemetry.shutdown();
  });

  it('are the ones these scenarios produce (tool error, refused skill jump, HTTP 429, the desk provider outage 503, abort, cancellation)', () => {
    expect(reported).toEqual(['429', '503', 'Error', 'aborted', 'cancelled', 'skill_rejected']);
  });

  it('the reference section lists each of them and the semconv version', () => {
    const missing = reported.filter((value) => !REFERENCE.includes(`\`${value}\``));
    expect({ missing, version: REFERENCE.includes('1.41') }).toEqual({ missing: [], version: true });
  });

  it('the table the reference is generated from has a row for every fixed value the code reports', () => {
    const rows = ERROR_TYPE_DOCS.map((doc) => doc.value);
    expect(Object.values(FIXED_ERROR_TYPES).filter((value) => !rows.includes(value))).toEqual([]);
  });
});
