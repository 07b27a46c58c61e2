/**
 * Keyed fingerprints of input parts (issue #36, docs/security.md): without a key no part has a
 * fingerprint field at all; with one, each part's is base64url(HMAC-SHA-256(key, "fp1\0" + slot +
 * "\0" + content)) cut to 16 characters, so equal content gives equal fingerprints, in this process
 * and in another one given the same key; a different key gives different ones, and the value is no
 * plain hash of the content, so a guessed content cannot be confirmed without the key.
 */
import { execFile } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, setFingerprintKey, type InputPart } from '../../../src/index.js';
import { lineageLog } from '../../support/lineage.js';
import { fingerprintAgent } from '../../support/fingerprintAgent.js';

afterEach(() => setFingerprintKey(undefined));

const KEY = 'k3y-for-the-fingerprint-tests-0123456789';

/** The fingerprint as the contract defines it, computed here. */
function expected(key: string, slot: string, content: string): string {
  return createHmac('sha256', key).update(`fp1\0${slot}\0${content}`).digest('base64url').slice(0, 16);
}

async function partsOfRun(): Promise<InputPart[][]> {
  const agent = fingerprintAgent();
  const log = lineageLog(agent);
  await agent.run('Is invoice 42 paid?');
  return log.parts();
}

const TOOLS = JSON.stringify([{ name: 'lookup', description: 'Finds an invoice', inputSchema: { type: 'object' } }]);
/** What each part of the second call holds, as its fingerprint's content. */
const SECOND_CALL = [
  ['system', 'Be terse.'],
  ['messages', 'Is invoice 42 paid?'],
  ['messages', JSON.stringify({ content: '', toolCalls: [{ name: 'lookup', args: { q: 'invoice 42' } }] })],
  ['messages', 'invoice 42: paid'],
  ['tools', TOOLS],
] as const;

describe('fingerprints', () => {
  it('without a key: no part has a fingerprint field', async () => {
    const calls = await partsOfRun();
    expect(calls.flat().map((part) => Object.hasOwn(part, 'fingerprint'))).toEqual([false, false, false, false, false, false, false, false]);
  });

  it('with a key: HMAC-SHA-256 of slot and content, 96 bits in base64url, equal for equal content across calls', async () => {
    setFingerprintKey(KEY);
    const [first, second] = (await partsOfRun()) as [InputPart[], InputPart[]];
    expect(second.map((part) => part.fingerprint)).toEqual(SECOND_CALL.map(([slot, content]) => expected(KEY, slot, content)));
    for (const part of second) expect(part.fingerprint).toMatch(/^[A-Za-z0-9_-]{16}$/);
    // The instructions, the run's input and the tool list were sent twice: the same fingerprints.
    expect(first.map((part) => part.fingerprint)).toEqual([second[0]!.fingerprint, second[1]!.fingerprint, second[4]!.fingerprint]);
  });

  it('equal content gives equal fingerprints in another process under the same key (FOOTPRINT_FINGERPRINT_KEY)', async () => {
    setFingerprintKey(KEY);
    const here = await partsOfRun();
    const child = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'test/fixtures/fingerprintInChild.ts'], {
      cwd: process.cwd(),
      env: { ...process.env, FOOTPRINT_FINGERPRINT_KEY: KEY },
    });
    const there = JSON.parse(child.stdout) as InputPart[][];
    const fingerprints = (calls: InputPart[][]) => calls.map((parts) => parts.map((part) => part.fingerprint));
    expect(fingerprints(there)).toEqual(fingerprints(here));
    // The producers differ (another run, other call ids); only the content is the same.
    expect(there[0]![1]!.producer).not.toEqual(here[0]![1]!.producer);
  });

  it('a guessed content cannot be confirmed without the key: another key gives another value, and no plain hash gives it', async () => {
    setFingerprintKey(KEY);
    const [, withKey] = (await partsOfRun()) as [InputPart[], InputPart[]];
    setFingerprintKey('another-key');
    const [, withOther] = (await partsOfRun()) as [InputPart[], InputPart[]];
    const result = withKey[3]!;
    expect(withOther[3]!.fingerprint).not.toBe(result.fingerprint);
    // Whoever guesses "invoice 42: paid" and hashes it (plainly, or as the fingerprint's input without a key) gets something else.
    const guesses = ['invoice 42: paid', 'fp1\0messages\0invoice 42: paid'].flatMap((text) => [
      createHash('sha256').update(text).digest('base64url').slice(0, 16),
      createHash('sha256').update(text).digest('hex').slice(0, 16),
      createHmac('sha256', '').update(text).digest('base64url').slice(0, 16),
    ]);
    expect(guesses).not.toContain(result.fingerprint);
    expect(guesses).not.toContain(withOther[3]!.fingerprint);
  });

  it('setFingerprintKey refuses what is no key', () => {
    expect(() => setFingerprintKey('')).toThrow(ConfigError);
    expect(() => setFingerprintKey(42 as unknown as string)).toThrow('setFingerprintKey() takes a non-empty string or Uint8Array, or undefined to remove the key');
  });
});
