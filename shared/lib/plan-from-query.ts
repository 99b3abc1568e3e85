import { useEffect } from 'react';
import { z } from 'zod';
import { selfServicePlanNames, setRememberedPlan, type SelfServicePlanName } from './remembered-plan';

// Anything but a plan an owner can start alone (Enterprise goes through sales) is no choice.
const planQuery = z.enum(selfServicePlanNames);

/** The plan a pricing link named (`/signup?plan=Growth`, docs/adr/0167), or null. */
export function planFromQuery(search: string): SelfServicePlanName | null {
  const parsed = planQuery.safeParse(new URLSearchParams(search).get('plan'));
  return parsed.success ? parsed.data : null;
}

/**
 * The query of the current address: the URL's own, or inside the hash for the desktop app's hash router
 * (`#/signup?plan=Pro`).
 */
export function currentQuery({ search, hash }: Pick<Location, 'search' | 'hash'>): string {
  return search || (hash.includes('?') ? hash.slice(hash.indexOf('?')) : '');
}

/**
 * On /signup: remembers the plan a visitor picked on the landing's pricing section, which is now a plain link so
 * the landing needs no JavaScript (docs/adr/0167), exactly as the old click did (shared/lib/remembered-plan), so
 * the remembered-plan note and the trial offer after sign-in read it as before. In an effect: the prerendered
 * shell has no plan, and hydration must match it. Reads the address itself rather than a router's location, so
 * it works under react-router and on a page booted without it.
 */
export function useRememberPlanFromQuery(): void {
  useEffect(() => {
    const plan = planFromQuery(currentQuery(window.location));
    if (plan) setRememberedPlan(plan);
  }, []);
}
