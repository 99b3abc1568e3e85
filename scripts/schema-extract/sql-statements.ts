/**
 * Splits SQL text into its top-level statements, each with the comment lines written just above it: enough
 * of PostgreSQL's lexer (strings, quoted names, dollar quotes, both comment styles) to find the semicolons
 * that end statements. The schema extraction reads the migrations with it, the duplicate check the schema files.
 */

export interface SqlStatement {
  /** The statement without its leading comments, up to and including the semicolon. */
  text: string;
  /** The `--` lines directly above it (no blank line between), as written. */
  comments: string;
}

/** Where the token starting at i ends (exclusive), for the tokens that may hide a semicolon. */
function skipToken(sql: string, i: number): number {
  const c = sql[i];
  if (c === '-' && sql[i + 1] === '-') {
    const end = sql.indexOf('\n', i);
    return end < 0 ? sql.length : end;
  }
  if (c === '/' && sql[i + 1] === '*') {
    let depth = 1;
    let j = i + 2;
    while (j < sql.length && depth > 0) {
      if (sql.startsWith('/*', j)) {
        depth += 1;
        j += 2;
      } else if (sql.startsWith('*/', j)) {
        depth -= 1;
        j += 2;
      } else j += 1;
    }
    return j;
  }
  if (c === "'") {
    // E'..' strings escape with backslashes; plain ones only double the quote.
    const escapes = i > 0 && /[eE]/.test(sql[i - 1] ?? '') && !/\w/.test(sql[i - 2] ?? '');
    let j = i + 1;
    while (j < sql.length) {
      if (escapes && sql[j] === '\\') j += 2;
      else if (sql[j] === "'" && sql[j + 1] === "'") j += 2;
      else if (sql[j] === "'") return j + 1;
      else j += 1;
    }
    return j;
  }
  if (c === '"') {
    const end = sql.indexOf('"', i + 1);
    return end < 0 ? sql.length : end + 1;
  }
  if (c === '$' && !/\w/.test(sql[i - 1] ?? '')) {
    const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i, i + 64));
    if (tag) {
      const end = sql.indexOf(tag[0], i + tag[0].length);
      return end < 0 ? sql.length : end + tag[0].length;
    }
  }
  return i + 1;
}

/** The comment block at the end of a gap between statements: contiguous `--` lines touching the statement. */
function leadingComments(gap: string): string {
  const lines = gap.split('\n');
  // The last line is the indentation before the statement itself.
  lines.pop();
  const block: string[] = [];
  for (let k = lines.length - 1; k >= 0; k -= 1) {
    const line = lines[k] ?? '';
    if (!line.trim().startsWith('--')) break;
    block.unshift(line.trimEnd());
  }
  return block.join('\n');
}

export function splitStatements(sql: string): SqlStatement[] {
  const statements: SqlStatement[] = [];
  let start = 0;
  let i = 0;
  const flush = (end: number) => {
    const chunk = sql.slice(start, end);
    // The statement begins at the first character that is neither blank nor inside a comment.
    let k = 0;
    while (k < chunk.length) {
      if (/\s/.test(chunk[k] ?? '')) k += 1;
      else if (chunk.startsWith('--', k) || chunk.startsWith('/*', k)) k = skipToken(chunk, k);
      else break;
    }
    const text = chunk.slice(k).trim();
    if (text && text !== ';') statements.push({ text, comments: leadingComments(chunk.slice(0, k)) });
    start = end;
  };
  while (i < sql.length) {
    if (sql[i] === ';') {
      i += 1;
      flush(i);
    } else i = skipToken(sql, i);
  }
  flush(sql.length);
  return statements;
}

/** The statement's words without comments, lower-cased and on one line: for classifying it. */
export function statementHead(text: string, length = 400): string {
  return text
    .slice(0, length)
    .replace(/--[^\n]*/g, ' ')
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

/** The body of a `create function ... as $tag$ body $tag$` statement, or null. */
export function dollarBody(text: string): { body: string; start: number } | null {
  const match = /\bas\s+(\$[A-Za-z_]*\$)/i.exec(text);
  if (!match) return null;
  const tag = match[1] ?? '$$';
  const from = match.index + match[0].length;
  const end = text.indexOf(tag, from);
  if (end < 0) return null;
  return { body: text.slice(from, end), start: match.index };
}
