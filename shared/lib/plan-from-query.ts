import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
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
 * On /signup: remembers the plan a visitor picked on the landing's pricing section, which is now a plain link so
 * the landing needs no JavaScript (docs/adr/0167), exactly as the old click did (shared/lib/remembered-plan), so
 * the remembered-plan note and the trial offer after sign-in read it as before. In an effect: the prerendered
 * shell has no plan, and hydration must match it.
 */
export function useRememberPlanFromQuery(): void {
  const { search } = useLocation();
  useEffect(() => {
    const plan = planFromQuery(search);
    if (plan) setRememberedPlan(plan);
  }, [search]);
}
