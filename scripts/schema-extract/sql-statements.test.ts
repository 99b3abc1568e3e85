import { describe, expect, it } from 'vitest';
import { dollarBody, splitStatements } from './sql-statements';

describe('splitStatements', () => {
  it('ends statements at top-level semicolons only, keeping the comment lines just above each', () => {
    const sql = `-- File header.

-- Why f exists.
-- Second line.
create function f() returns text language plpgsql as $body$
begin
  return 'a;b' || $$c;d$$; -- not the end;
end;
$body$;
/* block; comment */ comment on function f() is E'it''s; \\' done';
select "odd;name" from t;`;
    const statements = splitStatements(sql);
    expect(statements.map((s) => s.text.split('\n')[0])).toEqual([
      'create function f() returns text language plpgsql as $body$',
      "comment on function f() is E'it''s; \\' done';",
      'select "odd;name" from t;',
    ]);
    expect(statements[0]?.comments).toBe('-- Why f exists.\n-- Second line.');
    expect(statements[1]?.comments).toBe('');
  });

  it('finds the body between the dollar quotes', () => {
    const [statement] = splitStatements('create function g() returns int language sql\nas $fn$ select 1 $fn$;');
    expect(dollarBody(statement?.text ?? '')?.body).toBe(' select 1 ');
  });
});
