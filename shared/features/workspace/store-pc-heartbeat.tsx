import { useEffect } from 'react';
import { notify } from '../../components/toaster';
import { usePlatform, useSupabase } from '../../lib/platform-context';
import { HEARTBEAT_EVERY_MS, sendStorePcHeartbeat } from '../../lib/store-pc-heartbeat';
import { useWorkspaces } from './use-workspaces';

/**
 * On a store PC (the desktop app), reports its version for the chosen business at start and every few hours
 * (docs/adr/0270), and says once when IT's machine policy could not be applied. Renders nothing; the web
 * has no `machine` and skips all of it.
 */
export function StorePcHeartbeat() {
  const platform = usePlatform();
  const supabase = useSupabase();
  const businessId = useWorkspaces().current?.id;
  const machine = platform.machine;

  useEffect(() => {
    if (!machine || !businessId) return;
    let stopped = false;
    const beat = async () => {
      const status = await machine.status().catch(() => null);
      if (!status || stopped) return;
      const sent = await sendStorePcHeartbeat(supabase, businessId, status);
      // Offline or refused: the next beat tries again; the message names no person.
      if (!sent.ok) console.warn('Storewise: the version heartbeat was not sent:', sent.message);
    };
    void beat();
    const every = setInterval(() => void beat(), HEARTBEAT_EVERY_MS);
    return () => {
      stopped = true;
      clearInterval(every);
    };
  }, [machine, supabase, businessId]);

  useEffect(() => {
    if (!machine) return;
    void machine.status().then((status) => {
      if (status.policyProblem && !policyProblemShown) {
        policyProblemShown = true;
        notify.error('This computer\'s Storewise policy has a problem', `${status.policyProblem} Updates stay off until IT fixes it.`);
      }
    }, () => undefined);
  }, [machine]);

  return null;
}

// Once per app start, not on every visit to the dashboard.
let policyProblemShown = false;
