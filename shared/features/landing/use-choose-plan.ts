import { useSetAtom } from 'jotai';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { notify } from '../../components/toaster';
import { useAuth } from '../../lib/auth-provider';
import { useSupabase } from '../../lib/platform-context';
import { rememberedPlanAtom, type SelfServicePlanName } from '../../lib/remembered-plan';
import { choosePlan } from './plans-api';

/**
 * Get Started on a plan: a visitor goes to /signup with the plan remembered; a signed-in owner starts the
 * plan's 7-day trial and lands on billing.
 */
export function useChoosePlan() {
  const supabase = useSupabase();
  const { user } = useAuth();
  const navigate = useNavigate();
  const setRememberedPlan = useSetAtom(rememberedPlanAtom);
  const [pending, setPending] = useState<SelfServicePlanName | null>(null);

  async function choose(plan: SelfServicePlanName) {
    if (!user) {
      setRememberedPlan(plan);
      navigate('/signup');
      return;
    }
    setPending(plan);
    const { error } = await choosePlan(supabase, plan);
    setPending(null);
    if (error) return void notify.error('Error', error);
    setRememberedPlan(null);
    notify.success('Trial started', `Your 7-day free trial of the ${plan} plan has started.`);
    navigate('/dashboard/billing');
  }

  return { choose, pending };
}
