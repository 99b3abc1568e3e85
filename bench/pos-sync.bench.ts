/**
 * Point of sale: 1,000 sales queued in the register's offline outbox (IndexedDB through fake-indexeddb, the same
 * outbox.ts the register runs) sync through the register's own sendSale over HTTP (supabase-js -> the local
 * gateway -> post_sale), in order, exactly once. The first 100 were already posted before the sync (their answer
 * "lost"), so the sync resends them and the server must replay, not duplicate. The sync sends consecutive sales 20
 * at a time (3 lines each: post_sales takes 60 lines a call) through post_sales, as the register does; a sample sent one request per sale is printed for comparison.
 * Target (issue 13): 1,000 queued offline sales sync exactly once in under 60 s.
 *
 *   npm run bench -- pos-sync
 */
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { enqueue, openPosDb, pendingCount, pendingEntries, syncOutbox } from '../shared/features/pos/outbox';
import { sendSale, sendSales } from '../shared/features/pos/pos-api';
import type { StorewiseClient } from '../shared/lib/supabase-client';
import { createTestClient, startStack } from '../tests/helpers/stack';

const SALES = Number(process.env.STOREWISE_BENCH_SALES ?? '1000');
const ALREADY_POSTED = Math.min(100, SALES);
const TARGET_S = 60;
const SINGLE_SAMPLE = 100;

async function main(): Promise<void> {
  // Its own shop on an empty database (no demo seed): an owner, a store without tax, a register and ten items.
  const stack = await startStack({ seed: false });
  try {
    const service = createTestClient(stack, 'service');
    const must = async <T>(q: PromiseLike<{ data: T | null; error: { message: string } | null }>): Promise<T> => {
      const { data, error } = await q;
      if (error) throw new Error(error.message);
      return data as T;
    };
    const email = `pos-sync-${randomUUID().slice(0, 8)}@bench.storewise.test`;
    const password = `Pw-${randomUUID()}`;
    const user = await must(service.auth.admin.createUser({ email, password, email_confirm: true }).then((r) => ({ data: r.data.user, error: r.error })));
    const business = (await must(service.from('businesses').select('id').eq('owner_id', user?.id ?? '').single()) as { id: string }).id;
    const store = (await must(service.from('stores').insert({ business_id: business, name: 'Sync bench', default_tax_rate: 0 }).select('id').single()) as { id: string }).id;
    const register = (await must(service.from('registers').insert({ business_id: business, store_id: store, name: 'Bench', receipt_prefix: 'SYNC' })
      .select('id').single()) as { id: string }).id;
    const items: { id: string; price: number }[] = [];
    for (let i = 0; i < 10; i += 1) {
      const product = (await must(service.from('products').insert({ business_id: business, name: `Bench item ${i}` }).select('id').single()) as { id: string }).id;
      const price = 100 + i * 37;
      const variant = (await must(service.from('variants').insert({ business_id: business, product_id: product, sku: `SYNC${i}`, price })
        .select('id').single()) as { id: string }).id;
      items.push({ id: variant, price });
    }
    const client = createTestClient(stack);
    const signedIn = await client.auth.signInWithPassword({ email, password });
    if (signedIn.error) throw new Error(signedIn.error.message);
    const supabase = client as unknown as StorewiseClient;
    const opened = await client.rpc('open_shift', { _register_id: register, _opening_float: 0 });
    if (opened.error) throw new Error(opened.error.message);
    const shift = (opened.data as { id: string }).id;

    // Three lines each, paid by card for whatever the server computes (offline: a tender mismatch is flagged, not refused).
    const db = await openPosDb(`pos-sync-bench-${randomUUID()}`);
    const ids: string[] = [];
    const queued = performance.now();
    for (let i = 0; i < SALES; i += 1) {
      const id = randomUUID();
      ids.push(id);
      await enqueue(db, 'sale', {
        id, register_id: register ?? '', shift_id: shift, receipt_seq: i + 1, offline: true, occurred_at: new Date().toISOString(),
        lines: [0, 1, 2].map((k) => { const item = items[(i + k) % items.length]; return { variant_id: item?.id, qty: 1, unit_price: Number(item?.price) }; }),
        tenders: [{ kind: 'card', amount: 0 }],
      });
    }
    const queueMs = performance.now() - queued;
    // The answers to the first 100 were "lost": the server has them, the outbox does not know.
    const first = (await pendingEntries(db)).slice(0, ALREADY_POSTED);
    for (const entry of first) {
      const r = await sendSale(supabase, entry);
      if (r.status !== 'done') throw new Error(`pre-post failed: ${r.status}`);
    }

    // The floor of one request on this path (supabase-js -> gateway -> a one-row read under RLS), for scale.
    const floor: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const t = performance.now();
      const { error } = await client.from('registers').select('id').eq('id', register).single();
      if (error) throw new Error(error.message);
      floor.push(performance.now() - t);
    }
    floor.sort((a, b) => a - b);
    console.log(`HTTP request floor (a one-row read): p50 ${floor[10]?.toFixed(1)} ms, p95 ${floor[18]?.toFixed(1)} ms`);

    const started = performance.now();
    let replayed = 0;
    // As the register syncs (use-outbox.ts): consecutive sales up to 60 lines at a time through post_sales, pass after pass
    // (the register starts one every 15 s and on reconnect; here at once) until nothing waits.
    const result = { sent: 0, waiting: SALES, rejected: 0 };
    let passes = 0;
    while (result.waiting > 0 && passes < 20) {
      passes += 1;
      const pass = await syncOutbox(db, (entry) => sendSale(supabase, entry), (_e, res) => {
        if ((res as { replayed?: boolean }).replayed) replayed += 1;
      }, { sendBatch: (entries) => sendSales(supabase, entries) });
      result.sent += pass.sent;
      result.waiting = pass.waiting;
      result.rejected = pass.rejected;
      if (pass.waiting > 0) console.log(`pass ${passes} stopped: ${(await pendingEntries(db))[0]?.lastError ?? ''}`);
    }
    const syncS = (performance.now() - started) / 1000;
    const stored = Number((await stack.db.query<{ n: string }>('select count(*) as n from public.sales where id = any($1::uuid[])', [ids])).rows[0]?.n);
    const receipts = Number((await stack.db.query<{ n: string }>(
      'select count(distinct receipt_number) as n from public.sales where id = any($1::uuid[])', [ids])).rows[0]?.n);
    const ledger = Number((await stack.db.query<{ n: string }>(
      'select count(*) as n from public.stock_movements where reference_id = any($1::uuid[])', [ids])).rows[0]?.n);
    // One ledger row per stock-tracked line, none twice.
    const tracked = Number((await stack.db.query<{ n: string }>(
      `select count(*) as n from public.sale_lines l join public.variants v on v.id = l.variant_id
         join public.products p on p.id = v.product_id where l.sale_id = any($1::uuid[]) and p.track_stock`, [ids])).rows[0]?.n);
    const ok = result.sent === SALES && result.waiting === 0 && (await pendingCount(db)) === 0 && stored === SALES
      && receipts === SALES && replayed === ALREADY_POSTED && ledger === tracked;
    console.log(`queued ${SALES} sales in ${queueMs.toFixed(0)} ms (IndexedDB outbox)`);
    console.log(`synced ${result.sent} in ${syncS.toFixed(1)} s over ${passes} pass(es) (${(syncS * 1000 / SALES).toFixed(1)} ms a sale; target < ${TARGET_S} s), ` +
      `${replayed} replays of already-posted sales, ${stored} stored, ${receipts} receipt numbers, ${ledger} ledger rows ` +
      `-> ${ok ? 'OK (exactly once)' : 'FAILED'}`);
    if (!ok) process.exitCode = 1;
    db.close();

    // For comparison, one request per sale (the path before post_sales) on a sample.
    const single = await openPosDb(`pos-sync-bench-single-${randomUUID()}`);
    for (let i = 0; i < SINGLE_SAMPLE; i += 1) {
      await enqueue(single, 'sale', {
        id: randomUUID(), register_id: register, shift_id: shift, receipt_seq: SALES + i + 1, offline: true,
        lines: [0, 1, 2].map((k) => { const item = items[(i + k) % items.length]; return { variant_id: item?.id, qty: 1, unit_price: Number(item?.price) }; }),
        tenders: [{ kind: 'card', amount: 0 }],
      });
    }
    const singleStarted = performance.now();
    const one = await syncOutbox(single, (entry) => sendSale(supabase, entry));
    const perSale = (performance.now() - singleStarted) / SINGLE_SAMPLE;
    console.log(`one request per sale (sample of ${SINGLE_SAMPLE}): ${perSale.toFixed(1)} ms a sale, ` +
      `${(perSale * SALES / 1000).toFixed(0)} s for ${SALES} (sent ${one.sent})`);
    single.close();
  } finally {
    await stack.stop();
  }
}

await main();
