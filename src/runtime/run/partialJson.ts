/**
 * The value a prefix of a JSON text already holds, for a streamed structured answer (stream()'s
 * `partial_output` parts). Written here rather than taken from a package: it is one small recursive
 * parser, and its rules are the ones this runtime wants to promise:
 * - a string cut mid-way is kept as far as it came (its text is what the user wants to see grow);
 *   an escape cut mid-way is left out until it is whole;
 * - a number, `true`, `false` or `null` cut mid-way is left out (`12` may yet be `123`);
 * - a key whose value has not begun is left out; arrays and objects are closed where the text ends.
 * Not a prefix of any JSON text (a syntax error): undefined, as for a text with no value begun.
 */

/** A value read from the text, and whether the text holds all of it. */
interface Read {
  value: unknown;
  whole: boolean;
}

class NotJson extends Error {}

/** What the JSON text prefix `text` holds so far, or undefined when nothing yet (or it is not JSON). */
export function parsePartialJson(text: string): { value: unknown } | undefined {
  const reader = new PrefixReader(text);
  try {
    const read = reader.value();
    if (read === undefined) return undefined;
    if (read.whole && !reader.atEnd()) return undefined;
    return { value: read.value };
  } catch (error) {
    if (error instanceof NotJson) return undefined;
    throw error;
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS: ReadonlyArray<[string, unknown]> = [
  ['true', true],
  ['false', false],
  ['null', null],
];

class PrefixReader {
  private at = 0;

  constructor(private readonly text: string) {}

  /** True when only whitespace is left. */
  atEnd(): boolean {
    this.skipSpace();
    return this.at >= this.text.length;
  }

  /** The next value; undefined when the text ends before any of it can be kept. */
  value(): Read | undefined {
    if (this.atEnd()) return undefined;
    const c = this.text[this.at];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    return this.scalar();
  }

  private object(): Read {
    const object: Record<string, unknown> = {};
    this.at++;
    for (let first = true; ; first = false) {
      if (this.atEnd()) return { value: object, whole: false };
      if (this.text[this.at] === '}') {
        this.at++;
        return { value: object, whole: true };
      }
      if (!first) {
        this.expect(',');
        if (this.atEnd()) return { value: object, whole: false };
      }
      if (this.text[this.at] !== '"') throw new NotJson();
      const key = this.string();
      if (!key.whole || this.atEnd()) return { value: object, whole: false };
      this.expect(':');
      const read = this.value();
      if (read === undefined) return { value: object, whole: false };
      object[key.value as string] = read.value;
      if (!read.whole) return { value: object, whole: false };
    }
  }

  private array(): Read {
    const array: unknown[] = [];
    this.at++;
    for (let first = true; ; first = false) {
      if (this.atEnd()) return { value: array, whole: false };
      if (this.text[this.at] === ']') {
        this.at++;
        return { value: array, whole: true };
      }
      if (!first) this.expect(',');
      const read = this.value();
      if (read === undefined) return { value: array, whole: false };
      array.push(read.value);
      if (!read.whole) return { value: array, whole: false };
    }
  }

  /** A string from its opening quote; cut mid-way, the part before any unfinished escape. */
  private string(): Read {
    const start = this.at++;
    let kept = this.at;
    while (this.at < this.text.length) {
      const c = this.text[this.at];
      if (c === '"') {
        this.at++;
        return { value: this.decode(this.text.slice(start, this.at)), whole: true };
      }
      if (c === '\\') {
        const length = this.text[this.at + 1] === 'u' ? 6 : 2;
        if (this.at + length > this.text.length) break;
        this.at += length;
      } else {
        this.at++;
      }
      kept = this.at;
    }
    this.at = this.text.length;
    return { value: this.decode(`${this.text.slice(start, kept)}"`), whole: false };
  }

  private decode(quoted: string): string {
    try {
      return JSON.parse(quoted) as string;
    } catch {
      throw new NotJson();
    }
  }

  /** A number or a literal: only when whole (the text goes on past it). */
  private scalar(): Read | undefined {
    NUMBER.lastIndex = this.at;
    const number = NUMBER.exec(this.text);
    if (number) {
      const end = this.at + number[0].length;
      if (end >= this.text.length) return this.cut();
      if (/[\d.eE+-]/.test(this.text[end]!)) throw new NotJson();
      this.at = end;
      return { value: Number(number[0]), whole: true };
    }
    const rest = this.text.slice(this.at);
    for (const [word, value] of LITERALS) {
      if (rest.startsWith(word)) {
        this.at += word.length;
        return { value, whole: true };
      }
      if (word.startsWith(rest)) return this.cut();
    }
    if (rest === '-') return this.cut();
    throw new NotJson();
  }

  /** The text ends inside a value that cannot be kept yet. */
  private cut(): undefined {
    this.at = this.text.length;
    return undefined;
  }

  private expect(c: string): void {
    this.skipSpace();
    if (this.text[this.at] !== c) throw new NotJson();
    this.at++;
  }

  private skipSpace(): void {
    while (this.at < this.text.length && ' \t\n\r'.includes(this.text[this.at]!)) this.at++;
  }
}
