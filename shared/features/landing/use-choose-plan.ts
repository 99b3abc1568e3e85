import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { notify } from '../../components/toaster';
import { useAuth } from '../../lib/auth-provider';
import { useSupabaseLater } from '../../lib/platform-context';
import type { SelfServicePlanName } from '../../lib/remembered-plan';
import { startPlan } from './plans-api';

/**
 * Get Started on a plan: a visitor goes to /signup?plan=<name>, which remembers it; a signed-in owner goes to
 * the payment provider's checkout (the 7-day trial starts there, once per business) and comes back to billing;
 * an owner who already subscribes goes to Billing's plan chooser.
 */
export function useChoosePlan() {
  const supabaseLater = useSupabaseLater();
  const { user, loading } = useAuth();
  const navigate = useNavigate();
  const [pending, setPending] = useState<SelfServicePlanName | null>(null);

  // A click can come before supabase-js has loaded and reported the session: then ask it directly.
  async function signedIn(): Promise<boolean> {
    if (!loading) return user !== null;
    const { data } = await (await supabaseLater).auth.getSession();
    return data.session !== null;
  }

  async function choose(plan: SelfServicePlanName) {
    // A visitor goes where the plan's link goes: /signup remembers the plan from its query (docs/adr/0167).
    if (!(await signedIn())) return void navigate(`/signup?plan=${plan}`);
    setPending(plan);
    // Signed in means supabase-js has loaded, so this resolves at once.
    const started = await startPlan(await supabaseLater, plan);
    if (started.kind === 'refused') {
      setPending(null);
      // Already subscribed (409): the chooser shows what a change costs before anything changes.
      if (started.status === 409) return void navigate('/dashboard/billing?choose=plan');
      return void notify.error('Error', started.message);
    }
    // The store module (and jotai with it) loads on the first pick, not with the landing page.
    const { setRememberedPlan } = await import('../../lib/remembered-plan');
    setRememberedPlan(null);
    if (started.kind === 'checkout') return void window.location.assign(started.url);
    setPending(null);
    notify.success('Plan changed', `You are now on the ${started.plan} plan.`);
    navigate('/dashboard/billing');
  }

  return { choose, pending };
}
