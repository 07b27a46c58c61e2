/**
 * The one way the command line writes to a terminal. Everything it prints holds text from outside:
 * agent, model and tool names (a model chooses tool names), error messages, attributes read from
 * telemetry files, a model's answer. A control character in any of it (an ANSI or OSC sequence that
 * clears the screen, sets the window title or plants a hyperlink, a carriage return or newline that
 * forges a line, a bidirectional override) is shown escaped (`\x1b`, `\n`, `\u202e`) instead. The
 * only escape sequences that reach the terminal are this module's own colours, which callers ask for
 * with segments, never by writing ANSI themselves.
 */

export type Color = 'red' | 'cyan' | 'yellow';

/** Part of a line, in a colour of ours when colour is on. */
export interface Segment {
  text: string;
  color?: Color;
}

/** A line to print: plain text, or segments some of which are coloured. */
export type TerminalLine = string | readonly Segment[];

/** C0 and C1 controls and DEL (newline and tab included), and the bidirectional embeddings, overrides and isolates. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** The text with every control character shown escaped. */
export function escapeControls(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    return NAMED[c] ?? (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`);
  });
}

/**
 * Streamed text (a model's reply as it arrives) as it goes to the terminal: escaped as escapeControls
 * does, except that a newline stays one (a reply may have lines; a chunk never moves the cursor
 * otherwise, nor colours, retitles or links anything).
 */
export function escapeStreamed(text: string): string {
  return text.split('\n').map(escapeControls).join('\n');
}

const SGR: Record<Color, number> = { red: 31, cyan: 36, yellow: 33 };

/** One line as it goes to the terminal: escaped, coloured only where a segment asks and colour is on. */
export function renderLine(line: TerminalLine, color: boolean): string {
  if (typeof line === 'string') return escapeControls(line);
  return line
    .map((segment) => {
      const text = escapeControls(segment.text);
      return color && segment.color ? `\u001b[${SGR[segment.color]}m${text}\u001b[0m` : text;
    })
    .join('');
}

/** The plain text of a line (colour off), e.g. to compare or measure it. */
export function plainLine(line: TerminalLine): string {
  return renderLine(line, false);
}

/** Writes lines to a stream (stdout or stderr), one per line, through renderLine. */
export function writeLines(stream: NodeJS.WritableStream, lines: readonly TerminalLine[], color = false): void {
  if (lines.length === 0) return;
  stream.write(`${lines.map((line) => renderLine(line, color)).join('\n')}\n`);
}
