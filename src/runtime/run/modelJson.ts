/**
 * JSON a model wrote as its answer (a router's decision, structured output): models wrap it in one
 * code fence often enough, asked not to or not, that the fence is taken off before parsing (its tag
 * any word, `json`, `json5`, ` json`; its line ends LF or CRLF). One wrapping fence only: JSON with
 * prose around it is still no JSON answer. A streamed answer's JSON so far is read the same way.
 */

/** `raw` parsed as JSON once one wrapping code fence is taken off; throws a SyntaxError when it is no JSON. */
export function parseModelJson(raw: string): unknown {
  const text = raw.trim();
  const opening = OPENING.exec(text);
  const closing = opening && CLOSING.exec(text.slice(opening[0].length));
  return JSON.parse(opening && closing ? text.slice(opening[0].length, opening[0].length + closing.index) : text);
}

/** The JSON so far of a streamed answer that opened with a fence: after its opening line, without what of its closing line has come. */
export function unfencedSoFar(text: string): string {
  const opening = OPENING.exec(text);
  return opening ? text.slice(opening[0].length).replace(CLOSING_SO_FAR, '') : text;
}

const OPENING = /^\s*```[ \t]*[\w+.-]*[ \t]*\r?\n/;
const CLOSING = /\r?\n?[ \t]*```$/;
const CLOSING_SO_FAR = /\r?\n?[ \t]*`{0,3}\s*$/;
