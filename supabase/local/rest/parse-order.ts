/** Parses PostgREST's `order` parameter: `col`, `col.desc`, `col.asc.nullslast`, comma-separated. */
import { Cursor } from './cursor';

export interface OrderTerm {
  column: string;
  direction?: 'asc' | 'desc';
  nulls?: 'first' | 'last';
}

export function parseOrder(input: string): OrderTerm[] {
  const cursor = new Cursor(input, 'order');
  const terms: OrderTerm[] = [];
  for (;;) {
    const term: OrderTerm = { column: cursor.name() };
    if (cursor.peek() === '(') throw cursor.fail('ordering by embedded columns is not supported by the local stack');
    if (cursor.accept('.asc')) term.direction = 'asc';
    else if (cursor.accept('.desc')) term.direction = 'desc';
    if (cursor.accept('.nullsfirst')) term.nulls = 'first';
    else if (cursor.accept('.nullslast')) term.nulls = 'last';
    terms.push(term);
    if (cursor.done) break;
    if (!cursor.accept(',')) throw cursor.fail('expecting ".asc", ".desc", ".nullsfirst", ".nullslast" or ","');
  }
  return terms;
}
