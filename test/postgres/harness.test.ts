/**
 * The PostgreSQL test harness decides honestly: without the server's binaries a store test file fails
 * when PostgreSQL is required (CI=true) and is skipped elsewhere with the reason in its name.
 */
import { describe, expect, it } from 'vitest';
import { startPostgres } from '../support/postgres.js';

describe('the PostgreSQL test harness', () => {
  it('fails when PostgreSQL is required and missing, and otherwise gives the reason to skip with', async () => {
    const reason = 'PostgreSQL 15 not found (/nonexistent/postgresql/bin/initdb; apt-get install postgresql-15, or FOOTPRINT_PG_BIN)';
    await expect(startPostgres({ bin: '/nonexistent/postgresql/bin', required: true })).rejects.toThrow(`${reason} (CI=true: the PostgreSQL tests need it)`);
    expect(await startPostgres({ bin: '/nonexistent/postgresql/bin', required: false })).toBe(reason);
  });
});
