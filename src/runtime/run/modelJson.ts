/**
 * JSON a model wrote as its answer (a router's decision, structured output): models wrap it in one
 * code fence often enough, asked not to or not, that the fence is taken off before parsing. One
 * wrapping fence only: JSON with prose around it is still no JSON answer.
 */

/** `raw` parsed as JSON once one wrapping code fence (```json … ```) is taken off; throws a SyntaxError when it is no JSON. */
export function parseModelJson(raw: string): unknown {
  const text = raw.trim();
  const fenced = FENCED.exec(text);
  return JSON.parse(fenced ? fenced[1]! : text);
}

const FENCED = /^```[a-zA-Z]*\n([\s\S]*?)\n?```$/;
