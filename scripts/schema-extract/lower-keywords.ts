/**
 * The catalog renders SQL in capitals (PRIMARY KEY, CHECK, FOREIGN KEY ... ON DELETE CASCADE); the migrations are
 * written in lower case. Outside string literals and quoted names the catalog's output holds no upper-case
 * identifier (unquoted names fold to lower case), so lowering everything there changes only the keywords.
 */
export function lowerKeywords(sql: string): string {
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i] as string;
    if (c === "'" || c === '"') {
      // The deparser doubles quotes inside literals and names, and backslashes too (E''), never \'.
      let j = i + 1;
      while (j < sql.length && !(sql[j] === c && sql[j + 1] !== c)) j += sql[j] === c ? 2 : 1;
      out += sql.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c.toLowerCase();
      i += 1;
    }
  }
  return out;
}
