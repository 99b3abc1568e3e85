/**
 * The register's rules and the database's are one rule (issue 29): the same table of scale labels, IMEIs, cash
 * roundings and currency digits run through the shared TypeScript (what the register uses offline) and through
 * the SQL functions post_sale and post_refund call, and must agree case by case.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gtinCheckDigit } from '../../shared/lib/gtin';
import { refundCashRounding, roundToStep, saleCashRounding } from '../../shared/features/pos/cash-rounding';
import { labelQuantity, parseScaleLabel, parseScalePattern, type ScaleRule } from '../../shared/lib/scale-barcode';
import { imeiIsValid } from '../../shared/features/pos/serial-number';
import { currencyDigits } from '../../shared/lib/money';
import { startStack, type StackHandle } from '../helpers/stack';

let stack: StackHandle;
const one = async <T>(sql: string, params: unknown[]): Promise<T> =>
  ((await stack.db.query<{ v: T }>(sql, params)).rows[0] as { v: T }).v;

beforeAll(async () => {
  stack = await startStack({ seed: false });
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

const withCheck = (body: string) => body + String(gtinCheckDigit(body));
const rules: ScaleRule[] = [
  { pattern: '21.....{NNDDD}', kind: 'weight' }, { pattern: '22.....{NNNDD}', kind: 'price' },
  { pattern: '2......{NNNNN}', kind: 'price' }, { pattern: '2302....{NNDD}', kind: 'weight' },
];
const labels = ['210004201234', '219999999999', '220004200499', '250123400150', '230212340125', '210000000000']
  .map(withCheck).concat(['2100042012340', '210004201234', '21000420123X9', '9780306406157']);

describe('scale labels: TypeScript and SQL read the same', () => {
  it('patterns', async () => {
    for (const pattern of [...rules.map((r) => r.pattern), '21....{NNDDD}', '21.....{DDNNN}', '']) {
      const sql = await one<string | null>('select (private.scale_pattern_parts($1)).o_prefix as v', [pattern]);
      expect({ pattern, prefix: sql }).toEqual({ pattern, prefix: parseScalePattern(pattern)?.prefix ?? null });
    }
  });

  it('labels under every rule: item code, value, base code, and the quantity at a unit price', async () => {
    for (const rule of rules) {
      for (const code of labels) {
        const ts = parseScaleLabel(code, rule);
        const sql = await one<Record<string, unknown> | null>('select private.scale_barcode_parse($1, $2) as v', [code, rule.pattern]);
        expect({ code, rule: rule.pattern, read: sql }).toEqual({ code, rule: rule.pattern, read: ts && {
          item_code: ts.itemCode, value_digits: ts.valueDigits, decimals: ts.decimals, base_code: ts.baseCode } });
        if (!ts || rule.kind !== 'price') continue;
        for (const [currency, unitPrice] of [['USD', 399], ['JPY', 399], ['KWD', 3990]] as const) {
          const digits = currencyDigits(currency);
          const sqlQty = ts.decimals > digits ? null : await one<string | null>(
            'select private.scale_price_qty($1::bigint * power(10::numeric, $2::int - $3::int)::bigint, $4)::text as v',
            [ts.valueDigits, digits, ts.decimals, unitPrice]);
          const tsQty = labelQuantity(ts, unitPrice, digits);
          expect({ code, currency, qty: sqlQty === null ? null : Number(sqlQty) }).toEqual({ code, currency, qty: tsQty });
        }
      }
    }
  });
});

describe('money and serials: TypeScript and SQL agree', () => {
  it('the currency digits of every code the database allows', async () => {
    const codes = (await stack.db.query<{ c: string }>(`
      select unnest(regexp_matches(pg_get_constraintdef(c.oid), '''([A-Z]{3})''', 'g')) as c
        from pg_constraint c join pg_type t on t.oid = c.contypid where t.typname = 'currency_code'`)).rows.map((r) => r.c);
    expect(codes.length).toBeGreaterThan(100);
    const sql = (await stack.db.query<{ c: string; d: number }>(
      'select c, private.currency_digits(c) as d from unnest($1::text[]) c', [codes])).rows;
    expect(sql.map((r) => [r.c, r.d])).toEqual(codes.map((c) => [c, currencyDigits(c)]));
  });

  it('rounding to a step, sales and refunds', async () => {
    for (const [amount, step] of [[492, 5], [493, 5], [495, 5], [1050, 100], [1049, 100], [505, 10], [-493, 5], [492, 0], [7, 1]]) {
      expect({ amount, step, r: Number(await one('select private.round_to_step($1, $2) as v', [amount, step])) })
        .toEqual({ amount, step, r: roundToStep(amount as number, step as number) });
    }
    const sales: [number, { kind: 'cash' | 'card' | 'other'; amount: number }[], number][] = [
      [492, [{ kind: 'cash', amount: 490 }], 5], [492, [{ kind: 'card', amount: 200 }, { kind: 'cash', amount: 290 }], 5],
      [492, [{ kind: 'card', amount: 492 }], 5], [1234, [{ kind: 'cash', amount: 1230 }], 10], [3, [{ kind: 'other', amount: 1 }, { kind: 'cash', amount: 0 }], 5],
    ];
    for (const [total, tenders, step] of sales) {
      expect(Number(await one('select private.sale_cash_rounding($1, $2::jsonb, $3) as v', [total, JSON.stringify(tenders), step])))
        .toBe(saleCashRounding(total, tenders, step));
    }
    // refund_cash_rounding reads the sale's earlier refunds; round_to_step is its arithmetic, checked above, so the
    // cumulative formula is compared here through it.
    for (const [before, total, step] of [[0, 302, 5], [151, 151, 5], [100, 33, 5], [0, 1234, 10]]) {
      const sql = Number(await one('select private.round_to_step($1::bigint + $2::bigint, $3::bigint) - private.round_to_step($1::bigint, $3::bigint) - $2::bigint as v',
        [before, total, step]));
      expect(sql).toBe(refundCashRounding(before as number, total as number, step as number, 'cash'));
    }
  });

  it('IMEIs', async () => {
    for (const imei of ['490154203237518', '356938035643809', '490154203237519', '49015420323751', '35209900176148' + '1', 'abcdefghijklmno']) {
      expect({ imei, ok: await one<boolean>('select private.imei_is_valid($1) as v', [imei]) }).toEqual({ imei, ok: imeiIsValid(imei) });
    }
  });
});
