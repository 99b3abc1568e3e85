/**
 * PostgreSQL deparses a policy written as `using (business_id in (select private.my_business_ids()))` back as
 * `using ((business_id in ( select private.my_business_ids() as my_business_ids)))`. For policies no migration
 * wrote out (the ones `do` blocks built with format()), this writes the rendering back the way people write it;
 * the extraction uses the result only when it gives the same policy (verify-source.ts).
 */

/** Drops parentheses around the whole of an expression: "((a) or (b))" -> "(a) or (b)". */
function unwrap(expression: string): string {
  let text = expression.trim();
  for (;;) {
    if (!text.startsWith('(') || !text.endsWith(')')) return text;
    let depth = 0;
    for (let i = 0; i < text.length; i += 1) {
      if (text[i] === '(') depth += 1;
      if (text[i] === ')') depth -= 1;
      if (depth === 0 && i < text.length - 1) return text;
    }
    text = text.slice(1, -1).trim();
  }
}

/** The text between the parenthesis opening at `open` and its match, and where that match is. */
function group(text: string, open: number): { inner: string; close: number } {
  let depth = 0;
  for (let i = open; i < text.length; i += 1) {
    if (text[i] === '(') depth += 1;
    if (text[i] === ')' && --depth === 0) return { inner: text.slice(open + 1, i), close: i };
  }
  return { inner: text.slice(open + 1), close: text.length };
}

export function tidyPolicy(definition: string): string {
  let text = definition
    // The scalar subquery's column name the deparser spells out.
    .replace(/\( select ((?:\w+\.)?(\w+)\((?:[^()]|\([^()]*\))*\)) as \2\)/g, '(select $1)')
    // Literals in an array of text: the array's type says it already.
    .replace(/array\[((?:'(?:[^']|'')*'::text(?:, )?)+)\]/g, (_, items: string) => `array[${items.replace(/::text/g, '')}]`);
  for (const clause of ['using (', 'with check (']) {
    const at = text.indexOf(`\n  ${clause}`);
    if (at < 0) continue;
    const open = at + 3 + clause.length - 1;
    const { inner, close } = group(text, open);
    text = `${text.slice(0, open + 1)}${unwrap(inner)}${text.slice(close)}`;
  }
  return text;
}
