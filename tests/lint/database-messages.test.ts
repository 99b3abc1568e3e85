/**
 * Issue 25: every refusal the database can raise reaches a person as a sentence that says what to do. Reads every
 * RAISE message of supabase/schemas (the latest definition of every function) and fails when one is none of:
 * - written as an instruction ("enter a quantity above zero") or with its remedy after a colon or semicolon;
 * - reworded by a rule of shared/lib/database-messages.ts ("no such sale" -> "... Reload the page and try again.");
 * - a statement of the rule the input must meet, which the screens' forms check first (RULE_STATEMENTS);
 * - a message of the protocol between Storewise's own code and the database, which no screen lets a person cause
 *   (API_ONLY: ids the register generates, the scheduler's erasure steps, the billing webhook).
 * A new RAISE message therefore needs one of these before the test passes again.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hasRule, personMessage } from '../../shared/lib/database-messages';

const RULE_STATEMENTS = [
  'search text is too long (100 characters at most)', 'the effective date must be from today to a year ahead',
  'a cost cannot be negative', 'a transfer has at most 1000 lines', 'a purchase order has at most 1000 lines',
  'every line needs an item and a quantity above zero', 'a lot number has at most 60 characters', 'notes have at most 500 characters',
  'a product appears twice in the order',
  'a lot found during the count needs its number alone (no lot id) and a counted quantity above zero',
  'every counted line needs an item of this business, and a lot of that item when it names one',
  'every counted line needs an item and a quantity of zero or more', 'a serial number is listed twice', 'a sale has at most 10 tenders',
  'a customer needs a name (2 to 100 characters), and a phone of 10 to 20 characters or an email if given',
  'a sale has at least one line', 'a sale has at most 500 lines', 'the reason is too long (500 characters at most)',
  'the date range needs a start on or before its end', 'the date range is limited to two years',
  'the number of days must be between 1 and 365', 'a member is a manager or a cashier', 'a chosen store does not belong to this business',
  'the file has no rows', 'there is no draft of % to publish', 'a PIN is 4 to 6 digits',
  'a markdown is a percentage off (percent) or a fixed price (price)', 'the fixed price must be a whole number of minor units, 0 or more',
  'the percentage off must be more than 0 and less than 100 (at most 2 decimals)',
];

const API_ONLY = [
  'a page starts after both a time and an event id', 'no deletion of this business', 'no business for provider customer %',
  'unknown limit %', 'the first row number must be between 1 and 1,000,000', 'the store belongs to another business',
  'a purchase order starts as a draft', 'a line does not belong to this purchase order', 'lines must be a list',
  'a tender amount is a whole amount in minor units', 'the amount tendered is a whole amount in minor units',
  'a customer needs an id and a business', 'a shift needs its register-generated id', 'a close needs an id',
  'a denomination is a whole amount in minor units and its count a whole number', 'a cash movement needs an id', 'cash goes in or out',
  'an entry is a sale, refund, customer, cash, close or open', 'a sale needs its register-generated id (a uuid)',
  'a refund needs its own id and the sale\'s id (uuids)', 'no published version % of %', 'tickets can be assigned to administrators only',
  'unknown status filter', 'unknown priority filter', 'unknown erasure record', 'no deletion under way', 'batch must be between 1 and 10000',
  'this deletion is on legal hold', 'this deletion is not due',
  // The business-export Edge Function's steps (docs/adr/0290); the screen only starts an export and polls its state.
  'a ready export names its file', 'limit must be between 1 and 5000', 'no export being built with this id', 'not a table of the export',
  'state must be building, ready or failed, with the rows done', 'the export is %', 'the export\'s CSV files are products, stock, sales and customers',
  'after is the key of the previous page\'s last row',
  // The CSV imports' row shapes (ADR 0370, 0371): the browser builds them from the parsed file.
  'each row is an object of the file\'s columns', 'each row names its row_index and the picture\'s path',
  // The till and the register's reports (ADR 0300, 0330): ids and counts the register sends, people chosen from the store's list.
  'till_switch needs its id and the person\'s user_id', 'waiting must be between 0 and 1000000', 'this person is not a member of this business',
  // Foreign cash (ADR 0395): the register builds the tender and the close's foreign counts from its own lists.
  'only cash is taken in another currency', 'a foreign tender\'s currency is an ISO 4217 code such as EUR',
  'a foreign tender names the exchange rate it used', 'a foreign tender gives the rate it used (a decimal such as 1.0825)',
  'a foreign tender gives what was handed over in its currency\'s minor units',
  'count foreign cash as an object of currency codes and amounts', 'a foreign count is by ISO 4217 code, other than the store\'s %',
  'a foreign count is a whole amount in that currency\'s minor units',
  // Buttons cashiers are not shown; every Storewise account signs up with an email address.
  'only owners and managers choose the main picture', 'your account has no email address to send the test to',
];

/** Imperative openings: the message is itself what to do. */
const INSTRUCTION = /^(enter|choose|add|give|sign in|receive|send|count|keep|mark|open|set up|say|invite|cancel|ask|date|approve|post|refund|retry|check|import|name|close|use|restore|archive|upgrade|wait|try|start|verify|type|confirm|delete|remove|reply|write|select|make|turn|accept|leave|move|transfer|upload|attach|scan|list|reload)\b/i;

function raiseMessages(): string[] {
  const dir = 'supabase/schemas';
  const found = new Set<string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.sql'))) {
    const sql = readFileSync(`${dir}/${file}`, 'utf8');
    for (const m of sql.matchAll(/raise exception '((?:[^']|'')*)'/g)) found.add((m[1] ?? '').replace(/''/g, '\''));
  }
  // '%' or '%: %' re-raises a message built elsewhere (each of those is in the list on its own).
  return [...found].filter((m) => /[a-z]/i.test(m)).sort();
}

const example = (format: string) => format.replace(/%/g, '3');

describe('database messages for people', () => {
  const messages = raiseMessages();

  it('finds the schema\'s RAISE messages', () => {
    expect(messages.length).toBeGreaterThan(200);
    expect(messages).toContain('open a shift on this register first');
  });

  it('gives every RAISE message a sentence with what to do, or lists why a person never sees it', () => {
    const unplaced = messages.filter((m) => !INSTRUCTION.test(m) && !/[:;] /.test(m) && !/^Your /.test(m) && !hasRule(example(m))
      && !RULE_STATEMENTS.includes(m) && !API_ONLY.includes(m));
    expect(unplaced).toEqual([]);
  });

  it('lists only messages the schema still raises', () => {
    expect([...RULE_STATEMENTS, ...API_ONLY].filter((m) => !messages.includes(m))).toEqual([]);
  });

  it('shows each as a sentence: a capital, a full stop, no database words', () => {
    for (const m of messages) {
      const shown = personMessage(example(m));
      expect(shown, m).toMatch(/^[A-Z"]/);
      expect(shown, m).toMatch(/[.!?)]$/);
      expect(shown, m).not.toMatch(/permission denied/i);
    }
  });

  it('rewords the refusals that say nothing to do', () => {
    expect(personMessage('no such sale')).toBe('This sale was not found in this business: it may have been deleted, or you followed an old link. Reload the page and try again.');
    expect(personMessage('permission denied for this business')).toMatch(/^Your role in this business does not allow this\. Ask the owner/);
    expect(personMessage('this shift is closed')).toBe('This shift is already closed. Open a new shift to keep selling.');
    expect(personMessage('the tenders pay 10.00 but the sale totals 12.00')).toBe('The payments (10.00) do not add up to the sale\'s total (12.00). Change the amounts and try again.');
    // Already a sentence: kept as written (issue 25's "the Starter plan allows 1 stores" now reads "1 store").
    expect(personMessage('Your Starter plan allows 1 store.')).toBe('Your Starter plan allows 1 store.');
    expect(personMessage('open a shift on this register first')).toBe('Open a shift on this register first.');
  });
});
