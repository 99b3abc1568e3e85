/**
 * The hosted pages of the local provider: Checkout, the customer portal and the hosted invoice. Each is
 * clearly labelled as a test stand-in and accepts only Stripe's test card numbers (test-cards.ts), so nobody
 * types a real card here and card data never reaches Storewise (the pages live on the provider's own origin).
 */
import { Hono } from 'hono';
import type { BillingEngine } from './engine';
import { PaymentError } from './engine';
import { testCard, testCards } from './test-cards';
import type { ProviderState } from './objects';

const esc = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} (test mode)</title>
<link rel="icon" href="data:,"><!-- no /favicon.ico request, which would be a 404 in the console -->
<style>body{font-family:system-ui,sans-serif;max-width:34rem;margin:0 auto;padding:1rem;color:#1a1a1a}
.banner{background:#ffe8a3;border:2px solid #c78a00;padding:.6rem;border-radius:6px;font-weight:600}
label{display:block;margin-top:.7rem}input{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
button{margin-top:1rem;padding:.6rem 1.2rem;font-size:1rem}.error{color:#b00020;font-weight:600}
li{margin:.4rem 0}small{color:#555}</style></head><body>
<p class="banner" role="note">TEST MODE: Storewise's local payment provider, a stand-in for Stripe. No real payment is taken.
Use a Stripe test card, e.g. 4242 4242 4242 4242.</p>${body}</body></html>`;
}

const cardFields = `<label>Card number <input name="number" autocomplete="off" inputmode="numeric" required></label>
<label>Expiry (MM/YY) <input name="expiry" placeholder="12/34" required></label>
<label>CVC <input name="cvc" inputmode="numeric" required></label>`;

const cardHelp = `<details><summary>Test cards</summary><ul>${Object.entries(testCards).map(([number, card]) =>
  `<li><code>${number}</code>: ${card.attachDecline ? esc(card.attachDecline.message) : card.chargesFail ? 'attaches, every later charge fails' : 'succeeds'}</li>`).join('')}</ul></details>`;

function readCard(form: Record<string, string>): { card: NonNullable<ReturnType<typeof testCard>>; number: string; month: number; year: number } {
  const number = (form.number ?? '').replace(/[\s-]/g, '');
  const card = testCard(number);
  if (!card) throw new PaymentError('Your card number is not a Stripe test card. In test mode, use a test card such as 4242 4242 4242 4242.', 'invalid_number');
  const expiry = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec((form.expiry ?? '').trim());
  const month = Number(expiry?.[1]);
  const year = expiry?.[2]?.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry?.[2]);
  if (!expiry || month < 1 || month > 12) throw new PaymentError("Your card's expiration date is incomplete.", 'invalid_expiry');
  if (!/^\d{3,4}$/.test(form.cvc ?? '')) throw new PaymentError("Your card's security code is incomplete.", 'invalid_cvc');
  return { card, number, month, year };
}

export function createPaymentPages(state: ProviderState, engine: BillingEngine, changed: () => void): Hono {
  const app = new Hono();

  const checkoutPage = (id: string, error?: string) => {
    const session = state.checkoutSessions[id];
    if (!session) return null;
    const price = session._price ? state.prices[session._price] : undefined;
    const product = price ? state.products[price.product] : undefined;
    const what = price && product
      ? `<h1>Subscribe to ${esc(product.name)}</h1><p>${money(price.unit_amount, price.currency)} per ${price.recurring.interval}` +
        `${session._trial_days ? `, after a ${session._trial_days}-day free trial (nothing is charged today)` : ''}.</p>`
      : '<h1>Save a card</h1>';
    return page('Checkout', `${what}${error ? `<p class="error" role="alert">${esc(error)}</p>` : ''}
<form method="post" action="/checkout/${esc(id)}">${cardFields}<button type="submit">${session._trial_days ? 'Start trial' : price ? 'Subscribe' : 'Save card'}</button></form>
${session.cancel_url ? `<p><a href="${esc(session.cancel_url)}">Cancel and go back</a></p>` : ''}${cardHelp}`);
  };

  app.get('/checkout/:id', (c) => {
    const session = state.checkoutSessions[c.req.param('id')];
    if (!session) return c.html(page('Checkout', '<h1>Checkout not found</h1>'), 404);
    if (session.status !== 'open') return c.html(page('Checkout', '<h1>This checkout is complete.</h1>'), 410);
    return c.html(checkoutPage(session.id) ?? '');
  });
  app.post('/checkout/:id', async (c) => {
    const session = state.checkoutSessions[c.req.param('id')];
    if (!session) return c.html(page('Checkout', '<h1>Checkout not found</h1>'), 404);
    const form = Object.fromEntries(Object.entries(await c.req.parseBody()).map(([k, v]) => [k, String(v)]));
    try {
      const { card, number, month, year } = readCard(form);
      engine.completeCheckout(session, card, number, month, year);
    } catch (error) {
      if (!(error instanceof PaymentError)) throw error;
      return c.html(checkoutPage(session.id, error.message) ?? '', 402);
    }
    return c.redirect(session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id), 303);
  });

  const portalPage = (id: string, error?: string) => {
    const session = state.portalSessions[id];
    const customer = session ? state.customers[session.customer] : undefined;
    if (!session || !customer) return null;
    const methods = Object.values(state.paymentMethods).filter((pm) => pm.customer === customer.id);
    const rows = methods.map((pm) => `<li>${esc(pm.card.brand)} •••• ${esc(pm.card.last4)}, expires ${pm.card.exp_month}/${pm.card.exp_year}
${customer.invoice_settings.default_payment_method === pm.id ? ' <strong>Default</strong>' : `<form method="post" action="/portal/${esc(id)}/default" style="display:inline"><input type="hidden" name="pm" value="${esc(pm.id)}"><button>Make default</button></form>`}</li>`).join('');
    return page('Billing portal', `<h1>Payment methods</h1>${error ? `<p class="error" role="alert">${esc(error)}</p>` : ''}
<ul>${rows || '<li>No cards on file</li>'}</ul><h2>Add a card</h2>
<form method="post" action="/portal/${esc(id)}/cards">${cardFields}<button type="submit">Add card</button></form>
<p><a href="${esc(session.return_url)}">Return to Storewise</a></p>${cardHelp}`);
  };

  app.get('/portal/:id', (c) => {
    const html = portalPage(c.req.param('id'));
    return html ? c.html(html) : c.html(page('Billing portal', '<h1>Portal session not found</h1>'), 404);
  });
  app.post('/portal/:id/cards', async (c) => {
    const session = state.portalSessions[c.req.param('id')];
    const customer = session ? state.customers[session.customer] : undefined;
    if (!session || !customer) return c.html(page('Billing portal', '<h1>Portal session not found</h1>'), 404);
    const form = Object.fromEntries(Object.entries(await c.req.parseBody()).map(([k, v]) => [k, String(v)]));
    try {
      const { card, number, month, year } = readCard(form);
      // A new card in the portal becomes the default, as the portal's "Add payment method" does.
      const pm = engine.attachCard(customer, card, number, month, year, true);
      engine.setDefaultEverywhere(customer, pm.id);
    } catch (error) {
      if (!(error instanceof PaymentError)) throw error;
      return c.html(portalPage(session.id, error.message) ?? '', 402);
    }
    changed();
    return c.redirect(`/portal/${session.id}`, 303);
  });
  app.post('/portal/:id/default', async (c) => {
    const session = state.portalSessions[c.req.param('id')];
    const customer = session ? state.customers[session.customer] : undefined;
    const pm = String((await c.req.parseBody()).pm ?? '');
    if (!session || !customer || state.paymentMethods[pm]?.customer !== customer.id) return c.html(page('Billing portal', '<h1>Not found</h1>'), 404);
    engine.setDefaultEverywhere(customer, pm);
    return c.redirect(`/portal/${session.id}`, 303);
  });

  app.get('/invoice/:id', (c) => {
    const invoice = state.invoices[c.req.param('id')];
    if (!invoice) return c.html(page('Invoice', '<h1>Invoice not found</h1>'), 404);
    return c.html(page(`Invoice ${invoice.number}`, `<h1>Invoice ${esc(invoice.number)}</h1>
<p>Status: <strong>${esc(invoice.status)}</strong></p><p>Amount due: ${money(invoice.amount_due, invoice.currency)};
paid: ${money(invoice.amount_paid, invoice.currency)}</p><ul>${invoice.lines.data.map((l) => `<li>${esc(l.description)}: ${money(l.amount, invoice.currency)}</li>`).join('')}</ul>
<p><small>Issued ${new Date(invoice.created * 1000).toISOString().slice(0, 10)}</small></p>`));
  });
  return app;
}
