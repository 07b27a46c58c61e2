/**
 * A model's JSON answer with one wrapping code fence taken off (run/modelJson.ts), whole and as it
 * streams: the fences models write are taken, JSON with prose around it is not.
 */
import { describe, expect, it } from 'vitest';
import { parseModelJson, unfencedSoFar } from '../../../src/runtime/run/modelJson.js';

const VALUE = { city: 'Oslo', celsius: 4 };
const JSON_TEXT = JSON.stringify(VALUE);

describe('parseModelJson', () => {
  it('takes the fences models write: any tag or none, a space before it, CRLF lines, space around', () => {
    const fenced = ['```json\n', '```\n', '``` json\n', '```json5\n', '```JSON\r\n', '  ```json\n'].map((opening) => `${opening}${JSON_TEXT}${opening.endsWith('\r\n') ? '\r\n' : '\n'}\`\`\`  `);
    expect(fenced.map(parseModelJson)).toEqual(fenced.map(() => VALUE));
    expect(parseModelJson(JSON_TEXT)).toEqual(VALUE);
  });

  it('refuses prose around JSON, an unclosed fence and two fences', () => {
    for (const text of [`Here it is: ${JSON_TEXT}`, `\`\`\`json\n${JSON_TEXT}`, `\`\`\`json\n${JSON_TEXT}\n\`\`\`\n\`\`\`json\n{}\n\`\`\``]) {
      expect(() => parseModelJson(text), text).toThrow(SyntaxError);
    }
  });
});

describe('unfencedSoFar', () => {
  it('gives the JSON so far after the opening line, without what of the closing line has come', () => {
    expect(['```json\n{"ci', '```json\r\n{"city":"Oslo"', `\`\`\`json\n${JSON_TEXT}\n\``, `\`\`\`json\n${JSON_TEXT}\n\`\`\``].map(unfencedSoFar)).toEqual(['{"ci', '{"city":"Oslo"', JSON_TEXT, JSON_TEXT]);
    expect(unfencedSoFar('{"ci')).toBe('{"ci');
  });
});
