/**
 * The money rules as a property (issue 22, ADR 0171): random sequences of sales (counted and weighed items,
 * discounts, cash or card), partial refunds (with and without a manager, over-asking), cash in and out and shift
 * closes, online and from the offline outbox, by a cashier and a manager at two Downtown registers. After every
 * step, read straight from the tables:
 *   - no sale line is refunded beyond what was sold, in quantity or in money;
 *   - every sale's and refund's total equals the sum of its lines;
 *   - every shift's expected cash (x_report) equals its float, cash taken, cash refunded and cash moved;
 *   - every stock balance equals the sum of its ledger;
 *   - a closed shift's Z report never changes (late arrivals only in its after_close part).
 * fast-check's model-based runner chooses the steps; a seed makes a run repeatable (npm test uses a fixed one,
 * `npm run bench -- money-property` a random one and prints it).
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import fc from 'fast-check';
import { downtown, type CatalogWorld } from './catalog-world';

type Role = 'cashier' | 'manager';
interface Till { register: string; shift: string; client: SupabaseClient }
interface Model {
  tills: Record<Role, Till>;
  /** Sales posted so far (what a refund picks from), with their lines. */
  sales: { id: string; lines: { id: string; qty: number }[]; role: Role }[];
  /** Z reports as first read at each close, without their after_close part. */
  closed: Map<string, string>;
  steps: number;
}
type Real = CatalogWorld;
type Step = fc.AsyncCommand<Model, Real>;

export interface MoneyPropertyOptions {
  seed: number; numRuns: number; maxCommands: number;
  /** How long the generated sequences tend to be (fast-check's size); the bench asks for longer days than npm test. */
  size?: fc.SizeForArbitrary;
}
export interface MoneyPropertyResult { steps: number; sales: number; refunds: number; closes: number }

const same = (z: unknown) => {
  const { after_close: _late, ...frozen } = (z ?? {}) as Record<string, unknown>;
  return JSON.stringify(frozen);
};

async function openShift(w: Real, role: Role, register: string): Promise<string> {
  const { data, error } = await w.clients[role].rpc('open_shift', { _register_id: register, _opening_float: 10000 });
  if (error) throw new Error(`open_shift: ${error.message}`);
  return (data as { id: string }).id;
}

/** The invariants, read as the database owner over the whole business. Throws with the first broken one. */
export async function checkMoneyInvariants(w: Real, model: Model): Promise<void> {
  const over = await w.rows(`
    select l.id from public.sale_lines l
      join (select sale_line_id, sum(qty) as qty, sum(amount) as amount from public.refund_lines group by 1) r
        on r.sale_line_id = l.id
     where l.business_id = $1 and (r.qty > l.qty or r.amount > l.line_total)`, [w.businessA]);
  if (over.length > 0) throw new Error(`refunded beyond the line: ${JSON.stringify(over)}`);
  const saleTotals = await w.rows(`
    select s.id from public.sales s
     where s.business_id = $1
       and s.total <> (select coalesce(sum(l.line_total), 0) from public.sale_lines l where l.sale_id = s.id)`, [w.businessA]);
  if (saleTotals.length > 0) throw new Error(`sale total differs from its lines: ${JSON.stringify(saleTotals)}`);
  const refundTotals = await w.rows(`
    select f.id from public.refunds f
     where f.business_id = $1
       and f.total <> (select coalesce(sum(l.amount), 0) from public.refund_lines l where l.refund_id = f.id)`, [w.businessA]);
  if (refundTotals.length > 0) throw new Error(`refund total differs from its lines: ${JSON.stringify(refundTotals)}`);
  const drift = await w.rows(`
    select b.store_id, b.variant_id from public.stock_balances b
     where b.business_id = $1
       and b.qty <> (select coalesce(sum(m.qty), 0) from public.stock_movements m where m.store_id = b.store_id
                      and m.variant_id = b.variant_id and m.lot_id is not distinct from b.lot_id)`, [w.businessA]);
  if (drift.length > 0) throw new Error(`balance differs from its ledger: ${JSON.stringify(drift)}`);
  for (const till of Object.values(model.tills)) {
    const [expected] = await w.rows<{ cash: string }>(`
      select (s.opening_float
              + coalesce((select sum(t.amount) from public.sale_tenders t join public.sales x on x.id = t.sale_id
                           where x.shift_id = s.id and t.kind = 'cash'), 0)
              - coalesce((select sum(f.total) from public.refunds f where f.shift_id = s.id and f.tender_kind = 'cash'), 0)
              + coalesce((select sum(m.amount) from public.cash_movements m where m.shift_id = s.id and m.kind = 'in'), 0)
              - coalesce((select sum(m.amount) from public.cash_movements m where m.shift_id = s.id and m.kind = 'out'), 0))::text as cash
         from public.shifts s where s.id = $1`, [till.shift]);
    const x = await till.client.rpc('x_report', { _shift_id: till.shift });
    if (x.error) throw new Error(`x_report: ${x.error.message}`);
    if (Number((x.data as { expected_cash: number }).expected_cash) !== Number(expected?.cash)) {
      throw new Error(`expected cash ${(x.data as { expected_cash: number }).expected_cash} is not its movements ${expected?.cash}`);
    }
  }
  for (const [shift, frozen] of model.closed) {
    const z = await w.clients.owner.rpc('z_report', { _shift_id: shift });
    if (z.error || same(z.data) !== frozen) throw new Error(`the Z report of ${shift} changed after its close`);
  }
}

const roles = fc.constantFrom<Role>('cashier', 'manager');
const offline = fc.boolean();

class Sell implements Step {
  constructor(private role: Role, private off: boolean, private items: { weighed: boolean; qty: number; pct: number }[],
    private kind: 'cash' | 'card') {}
  check = () => true;
  async run(m: Model, w: Real) {
    const till = m.tills[this.role];
    const lines = this.items.map((i) => {
      const price = i.weighed ? 399 : 1400;
      const discount = Math.floor((price * i.qty * i.pct) / 100);
      return { variant_id: i.weighed ? w.f.kgVariant : w.f.variant, qty: i.qty, ...(discount > 0 ? { discount } : {}) };
    });
    const payload = { id: randomUUID(), register_id: till.register, shift_id: till.shift, offline: this.off, lines };
    let posted = await till.client.rpc('post_sale', { _payload: { ...payload, tenders: [{ kind: this.kind, amount: 0 }] } });
    if (posted.error && !this.off) {
      // Online the register knows the total; here the server's refusal tells it. A cashier's discount above the
      // limit is refused online, as designed.
      if (posted.error.code === '42501') return;
      const total = Number(/total:(\d+)/.exec(posted.error.details ?? '')?.[1] ?? NaN);
      if (!Number.isFinite(total)) throw new Error(`sale refused: ${posted.error.message}`);
      posted = await till.client.rpc('post_sale', { _payload: { ...payload, id: randomUUID(), tenders: [{ kind: this.kind, amount: total }] } });
    }
    if (posted.error) throw new Error(`sale refused: ${posted.error.message}`);
    const sale = posted.data as { id: string; lines: { id: string; qty: number }[] };
    m.sales.push({ id: sale.id, role: this.role, lines: sale.lines.map((l) => ({ id: l.id, qty: Number(l.qty) })) });
    m.steps++;
    await checkMoneyInvariants(w, m);
  }
  toString = () => `sell(${this.role}, offline=${this.off}, ${JSON.stringify(this.items)}, ${this.kind})`;
}

class Refund implements Step {
  constructor(private role: Role, private off: boolean, private pick: number, private share: number, private approved: boolean,
    private tender: 'cash' | 'card' | null) {}
  check = (m: Readonly<Model>) => m.sales.length > 0;
  async run(m: Model, w: Real) {
    const sale = m.sales[this.pick % m.sales.length]!;
    const till = m.tills[this.role];
    const line = sale.lines[0]!;
    const qty = Math.max(0.001, Math.round(line.qty * this.share * 1000) / 1000);
    const whole = Number.isInteger(line.qty) ? Math.max(1, Math.round(qty)) : qty;
    let approval: unknown = null;
    if (this.role === 'cashier' && this.approved) {
      approval = (await w.clients.manager.rpc('approve_discount', { _store_id: downtown, _max_discount_percent: 0, _purpose: 'refund' })).data;
    }
    const res = await till.client.rpc('post_refund', { _payload: {
      id: randomUUID(), sale_id: sale.id, shift_id: till.shift, offline: this.off, approval_id: approval,
      ...(this.tender ? { tender_kind: this.tender } : {}),
      lines: [{ sale_line_id: line.id, qty: whole, disposition: this.share > 0.5 ? 'damaged' : 'restock' }] } });
    // Refusals are part of the rules (over-asking online, a cashier without a manager beyond the bounds).
    if (res.error && !/^(22023|42501)$/.test(res.error.code)) throw new Error(`refund failed: ${res.error.message}`);
    m.steps++;
    await checkMoneyInvariants(w, m);
  }
  toString = () => `refund(${this.role}, offline=${this.off}, sale#${this.pick}, ${this.share}, approved=${this.approved}, ${this.tender})`;
}

class Cash implements Step {
  constructor(private role: Role, private kind: 'in' | 'out', private amount: number) {}
  check = () => true;
  async run(m: Model, w: Real) {
    const till = m.tills[this.role];
    const { error } = await till.client.rpc('cash_in_out', { _id: randomUUID(), _shift_id: till.shift, _kind: this.kind,
      _amount: this.amount, _reason: 'Property step', _at: new Date().toISOString() });
    if (error) throw new Error(`cash_in_out: ${error.message}`);
    m.steps++;
    await checkMoneyInvariants(w, m);
  }
  toString = () => `cash(${this.role}, ${this.kind}, ${this.amount})`;
}

class Close implements Step {
  constructor(private role: Role, private counted: number) {}
  check = () => true;
  async run(m: Model, w: Real) {
    const till = m.tills[this.role];
    const closed = await till.client.rpc('close_shift', { _shift_id: till.shift, _counted: { 1: this.counted } });
    if (closed.error) throw new Error(`close_shift: ${closed.error.message}`);
    m.closed.set(till.shift, same(closed.data));
    till.shift = await openShift(w, this.role, till.register);
    m.steps++;
    await checkMoneyInvariants(w, m);
  }
  toString = () => `close(${this.role}, counted=${this.counted})`;
}

const sell = fc.tuple(roles, offline, fc.array(fc.record({ weighed: fc.boolean(), qty: fc.integer({ min: 1, max: 4 }), pct: fc.constantFrom(0, 0, 5, 30) }),
    { minLength: 1, maxLength: 3 }), fc.constantFrom<'cash' | 'card'>('cash', 'card'))
    .map(([r, o, items, k]) => new Sell(r, o, items.map((i) => ({ ...i, qty: i.weighed ? Math.round(i.qty * 0.337 * 1000) / 1000 : i.qty })), k));
// Sales and refunds come up twice as often as cash and closes: most of a day at a till.
const steps = [
  sell, sell,
  fc.tuple(roles, offline, fc.nat(), fc.double({ min: 0.05, max: 1.2, noNaN: true }), fc.boolean(),
    fc.constantFrom<'cash' | 'card' | null>(null, null, 'cash', 'card'))
    .map(([r, o, p, s, a, t]) => new Refund(r, o, p, s, a, t)),
  fc.tuple(roles, offline, fc.nat(), fc.double({ min: 0.05, max: 1.2, noNaN: true }), fc.boolean(), fc.constant(null))
    .map(([r, o, p, s, a, t]) => new Refund(r, o, p, s, a, t)),
  fc.tuple(roles, fc.constantFrom<'in' | 'out'>('in', 'out'), fc.integer({ min: 1, max: 5000 })).map(([r, k, a]) => new Cash(r, k, a)),
  fc.tuple(roles, fc.integer({ min: 0, max: 50000 })).map(([r, c]) => new Close(r, c)),
];

/** Runs the property on the world (its Downtown registers DT1 for the manager, DT2 for the cashier). */
export async function runMoneyProperty(w: Real, options: MoneyPropertyOptions): Promise<MoneyPropertyResult> {
  const registers = Object.fromEntries((await w.rows<{ id: string; receipt_prefix: string }>(
    `select id, receipt_prefix from public.registers where receipt_prefix in ('DT1', 'DT2')`)).map((r) => [r.receipt_prefix, r.id]));
  const tills: Record<Role, Till> = {
    manager: { register: registers.DT1 as string, shift: '', client: w.clients.manager },
    cashier: { register: registers.DT2 as string, shift: '', client: w.clients.cashier },
  };
  for (const role of ['manager', 'cashier'] as const) {
    await w.rows(`update public.shifts set closed_at = now(), counted_total = 0, expected_cash = 0, difference = 0,
                    z_figures = '{}', close_recorded_at = now() where register_id = $1 and closed_at is null`, [tills[role].register]);
    tills[role].shift = await openShift(w, role, tills[role].register);
  }
  const model: Model = { tills, sales: [], closed: new Map(), steps: 0 };
  await fc.assert(fc.asyncProperty(fc.commands(steps, { maxCommands: options.maxCommands, ...(options.size ? { size: options.size } : {}) }), async (cmds) => {
    await fc.asyncModelRun(() => ({ model, real: w }), cmds);
  }), { seed: options.seed, numRuns: options.numRuns, endOnFailure: true });
  const [counts] = await w.rows<{ sales: number; refunds: number }>(
    `select (select count(*)::int from public.sales where id = any($1::uuid[])) as sales,
            (select count(*)::int from public.refunds where sale_id = any($1::uuid[])) as refunds`, [model.sales.map((s) => s.id)]);
  return { steps: model.steps, sales: counts?.sales ?? 0, refunds: counts?.refunds ?? 0, closes: model.closed.size };
}
