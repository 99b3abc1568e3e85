import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { notify } from '../../components/toaster';
import { useAuth } from '../../lib/auth-provider';
import { useSupabaseLater } from '../../lib/platform-context';
import type { SelfServicePlanName } from '../../lib/remembered-plan';
import { choosePlan } from './plans-api';

/**
 * Get Started on a plan: a visitor goes to /signup?plan=<name>, which remembers it; a signed-in owner gets the
 * plan (a 7-day trial the first time) and lands on billing.
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
    const { plan: chosen, error } = await choosePlan(await supabaseLater, plan);
    setPending(null);
    if (error || !chosen) return void notify.error('Error', error ?? 'The plan could not be chosen.');
    // The store module (and jotai with it) loads on the first pick, not with the landing page.
    const { setRememberedPlan } = await import('../../lib/remembered-plan');
    setRememberedPlan(null);
    const { planChoiceMessage } = await import('./plan-choice-message');
    const message = planChoiceMessage(chosen);
    notify.success(message.title, message.description);
    navigate('/dashboard/billing');
  }

  return { choose, pending };
}
