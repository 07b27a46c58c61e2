/**
 * Keyed fingerprints of input parts (issue #36, docs/security.md): with a key, each part of a model
 * call's input carries `base64url(HMAC-SHA-256(key, "fp1\0" + slot + "\0" + canonical content))`,
 * cut to 16 characters (96 bits). Equal content under one key gives equal fingerprints, across calls
 * and processes, so a user sees that the tool result in one call is the one in another with content
 * capture off; without the key nobody can confirm a guessed content (a plain hash would let them).
 * No key, no fingerprint. The key is process-wide, like the content switch: the environment variable
 * FOOTPRINT_FINGERPRINT_KEY, or setFingerprintKey() from the app; a run reads it once, when it starts.
 */
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { ConfigError } from './errors.js';

/** The environment variable that holds the fingerprint key (any non-empty text; at least 32 random bytes is advised). */
export const FINGERPRINT_KEY_ENV = 'FOOTPRINT_FINGERPRINT_KEY';

/** Fingerprint length in base64url characters: 16 of them are 96 bits. */
const FINGERPRINT_CHARS = 16;

/** undefined: not decided yet (the environment is read on first use); null: no key. */
let processKey: KeyObject | null | undefined;

/**
 * Sets the process's fingerprint key (text or bytes), or removes it (undefined): runs started after
 * this call use it, runs already going keep theirs. Overrides FOOTPRINT_FINGERPRINT_KEY.
 */
export function setFingerprintKey(key: string | Uint8Array | undefined): void {
  if (key === undefined) {
    processKey = null;
    return;
  }
  if (!(typeof key === 'string' || key instanceof Uint8Array) || key.length === 0) {
    throw new ConfigError('setFingerprintKey() takes a non-empty string or Uint8Array, or undefined to remove the key', { field: 'key' });
  }
  processKey = createSecretKey(typeof key === 'string' ? Buffer.from(key, 'utf8') : Buffer.from(key));
}

/** The key a starting run fingerprints with (read once per run), or undefined: no fingerprints. */
export function fingerprintKey(): KeyObject | undefined {
  if (processKey === undefined) {
    const fromEnv = process.env[FINGERPRINT_KEY_ENV];
    processKey = fromEnv === undefined || fromEnv === '' ? null : createSecretKey(Buffer.from(fromEnv, 'utf8'));
  }
  return processKey ?? undefined;
}

/** The fingerprint of `content` (canonical text) in `slot`, under `key`. */
export function fingerprint(key: KeyObject, slot: string, content: string): string {
  return createHmac('sha256', key).update(`fp1\0${slot}\0${content}`).digest('base64url').slice(0, FINGERPRINT_CHARS);
}
