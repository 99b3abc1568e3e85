/**
 * A tiny scanner shared by the query-string parsers (select, order, logic trees). It knows
 * PostgREST's name syntax: bare names of letters, digits, `_`, `$` and spaces, or "double-quoted".
 */
import { parseError } from './rest-error';

const NAME_CHAR = /[\p{L}\p{N}_$ ]/u;

export class Cursor {
  pos = 0;

  constructor(
    readonly input: string,
    /** What is being parsed, for error messages ("select", "order", ...). */
    readonly what: string,
  ) {}

  get done(): boolean {
    return this.pos >= this.input.length;
  }

  peek(offset = 0): string {
    return this.input[this.pos + offset] ?? '';
  }

  startsWith(text: string): boolean {
    return this.input.startsWith(text, this.pos);
  }

  accept(text: string): boolean {
    if (!this.startsWith(text)) return false;
    this.pos += text.length;
    return true;
  }

  expect(text: string): void {
    if (!this.accept(text)) throw this.fail(`expecting "${text}"`);
  }

  fail(expecting: string): Error {
    const found = this.done ? 'end of input' : `"${this.peek()}"`;
    return parseError(this.what, this.input, `unexpected ${found} at position ${this.pos + 1}, ${expecting}`);
  }

  /** A bare or double-quoted name; quoted names may hold any character but `"` (written `\"`). */
  name(): string {
    if (this.peek() === '"') return this.quoted();
    const start = this.pos;
    while (!this.done && NAME_CHAR.test(this.peek())) this.pos += 1;
    const name = this.input.slice(start, this.pos).trim();
    if (name === '') throw this.fail('expecting a name');
    return name;
  }

  /** A "quoted" string with backslash escapes, as PostgREST allows in lists and logic trees. */
  quoted(): string {
    this.expect('"');
    let out = '';
    while (!this.done && this.peek() !== '"') {
      if (this.peek() === '\\' && this.pos + 1 < this.input.length) this.pos += 1;
      out += this.peek();
      this.pos += 1;
    }
    this.expect('"');
    return out;
  }
}
