import { formatDate, formatMoney } from '../../../lib/format';

/** One row of public.plan_catalog(): the limits the database enforces (null = unlimited) and the price per month. */
export interface CatalogPlan {
  plan: string;
  price: number | null;
  max_stores: number | null;
  max_products: number | null;
  max_members: number | null;
  self_service: boolean;
}

/** The owner's plan row as the Billing page loads it (null: no plan, which the database calls Free). */
export interface CurrentPlan {
  plan_name: string;
  status: string;
  price: number | string;
  next_billing_date: string | null;
}

/** One business the owner owns, with what it uses (public.my_plan_usage()). */
export interface BusinessUsage {
  business_name: string;
  stores_used: number;
  products_used: number;
  members_used: number;
}

export interface PlanChange {
  title: string;
  limits: { label: string; before: string; after: string }[];
  price: string;
  trial: string;
  /** What is charged, when and where (the amount due before confirming). */
  due: string;
  /** Set when confirming records the plan but the limits do not change (a canceled or expired plan). */
  notInEffect: string | null;
  /** Each business over one of the new limits: what stays, what is blocked, and what to do. */
  overLimit: string[];
}

/** Said wherever an owner looks for payment (the Billing page and the chooser). */
export const PAYMENT_NOTE =
  'Card details are entered only on our payment provider\'s secure page; Storewise never sees or stores them.';

const LIVE_STATUSES = ['trialing', 'active', 'past_due'];

/** The plan whose limits apply now: no plan, canceled or expired is Free (as private.plan_limits decides). */
export const effectivePlanName = (current: CurrentPlan | null): string =>
  current && LIVE_STATUSES.includes(current.status) ? current.plan_name : 'Free';

const count = (n: number | null, noun: string, plural = `${noun}s`) =>
  n === null ? `Unlimited ${plural}` : `${n} ${n === 1 ? noun : plural}`;
const team = (n: number | null) => (n === 1 ? 'Owner only' : n === null ? 'Unlimited team' : `${n} people`);
const perMonth = (price: number | string | null) => `${formatMoney(price ?? 0)} per month`;

function overLimitLines(business: BusinessUsage, plan: CatalogPlan): string[] {
  const lines: string[] = [];
  const name = business.business_name;
  if (plan.max_stores !== null && business.stores_used > plan.max_stores) {
    const extra = business.stores_used - plan.max_stores;
    lines.push(`${name} has ${count(business.stores_used, 'open store')}; ${plan.plan} allows ${plan.max_stores}. ` +
      `Nothing is deleted and every store keeps selling, but you cannot open or restore a store until you archive ` +
      `${count(extra, 'store')}.`);
  }
  if (plan.max_products !== null && business.products_used > plan.max_products) {
    const extra = business.products_used - plan.max_products;
    // Items are what the limit counts: each sellable variant (size, colour) of a product on sale.
    lines.push(`${name} has ${count(business.products_used, 'item')}; ${plan.plan} allows ${plan.max_products}. ` +
      `Nothing is deleted, but you cannot add an item until you archive ${count(extra, 'item')}.`);
  }
  if (plan.max_members !== null && business.members_used > plan.max_members) {
    lines.push(`${name} has ${count(business.members_used, 'person', 'people')}; ${plan.plan} is for the owner alone. ` +
      'Nobody is removed, but no one new can join until you remove members.');
  }
  return lines;
}

function trialLine(current: CurrentPlan | null, target: CatalogPlan, now: Date, trialAvailable: boolean): string {
  if (current?.status === 'trialing') {
    return `Your free trial continues until ${formatDate(current.next_billing_date)}; changing plan does not restart it.`;
  }
  if (trialAvailable) {
    const ends = new Date(now.getTime() + 7 * 86_400_000);
    return `Starts your 7-day free trial of ${target.plan}, until ${formatDate(ends)}.`;
  }
  if (current && (current.status === 'active' || current.status === 'past_due')) {
    return `No trial (it is offered once). The new price applies from your next billing date, ` +
      `${formatDate(current.next_billing_date, 'not scheduled yet')}.`;
  }
  return 'No trial (it is offered once).';
}

const DAY_MS = 86_400_000;

/**
 * The amount due, as the provider will compute it: an upgrade of a paid subscription is charged now for the rest
 * of the period (the annual difference times the share of the period left), a downgrade charges nothing now, a
 * new subscription is charged on the provider's page (after the trial when there is one).
 */
function dueLine(current: CurrentPlan | null, target: CatalogPlan, now: Date, options: ChangeOptions): string {
  const annual = Number(target.price ?? 0) * 12;
  if (options.hasSubscription && current?.status === 'trialing') return 'Nothing is due during the trial.';
  if (options.hasSubscription && current?.status === 'active') {
    const difference = (Number(target.price ?? 0) - Number(current.price)) * 12;
    if (difference <= 0) {
      return `Nothing is due now. ${current.plan_name} stays until ${formatDate(current.next_billing_date)}; ` +
        `then ${target.plan} at ${formatMoney(annual)} a year.`;
    }
    const end = current.next_billing_date ? new Date(current.next_billing_date).getTime() : now.getTime();
    const share = Math.min(1, Math.max(0, (end - now.getTime()) / (365 * DAY_MS)));
    return `About ${formatMoney(Math.round(difference * share * 100) / 100)} due now for the rest of this period ` +
      `(until ${formatDate(current.next_billing_date)}), charged to your card on file.`;
  }
  if (options.trialAvailable) {
    return `Nothing is due today. You add a card on the payment provider's page; ${formatMoney(annual)} a year is ` +
      `charged when the trial ends.`;
  }
  return `${formatMoney(annual)} a year, paid on the payment provider's page.`;
}

export interface ChangeOptions {
  /** The free trial is still on offer to this business (public.my_billing). */
  trialAvailable: boolean;
  /** The business has a live subscription at the provider (a change updates it instead of a new checkout). */
  hasSubscription: boolean;
}

/**
 * What confirming `target` changes for this owner: limits before and after, price, trial, and every business
 * that would be over a limit. Built from the database's own catalog, so it promises what the database enforces.
 */
export function describePlanChange(current: CurrentPlan | null, catalog: CatalogPlan[], targetName: string,
  usage: BusinessUsage[], now = new Date(), options: ChangeOptions = { trialAvailable: current === null, hasSubscription: false }): PlanChange {
  const target = catalog.find((p) => p.plan === targetName);
  if (!target) throw new Error(`Unknown plan: ${targetName}`);
  const nowName = effectivePlanName(current);
  const before = catalog.find((p) => p.plan === nowName) ?? catalog[0] ?? target;
  // A canceled or expired plan gives Free limits now; buying again starts a new subscription.
  const inEffect = !current || LIVE_STATUSES.includes(current.status);
  const after = target;
  const currentPrice = current && inEffect ? current.price : 0;
  return {
    title: `Change from ${current && !inEffect ? `${current.plan_name} (${current.status})` : nowName} to ${target.plan}`,
    limits: [
      { label: 'Stores', before: count(before.max_stores, 'store'), after: count(after.max_stores, 'store') },
      { label: 'Items (each size or colour)', before: count(before.max_products, 'item'), after: count(after.max_products, 'item') },
      { label: 'Team', before: team(before.max_members), after: team(after.max_members) },
    ],
    price: `${perMonth(currentPrice)} now, ${perMonth(target.price)} on ${target.plan}, billed annually.`,
    trial: trialLine(current, target, now, options.trialAvailable),
    due: dueLine(current, target, now, options),
    notInEffect: inEffect ? null
      : `Your ${current.plan_name} plan is ${current.status}: your businesses have the Free limits until the new ` +
        'subscription is paid on the payment provider\'s page.',
    overLimit: usage.flatMap((business) => overLimitLines(business, target)),
  };
}
