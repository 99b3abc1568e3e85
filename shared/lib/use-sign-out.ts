import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSupabase } from './platform-context';

/**
 * Signs this device out (scope 'local': "Logout Other Devices" ends the rest) and returns to the home page.
 * `leaving` stays true from the click on, so guards do not bounce to /auth or /dashboard while the user
 * becomes null.
 */
export function useSignOut(): { signOut: () => Promise<void>; leaving: boolean } {
  const supabase = useSupabase();
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);
  const signOut = useCallback(async () => {
    setLeaving(true);
    const { error } = await supabase.auth.signOut({ scope: 'local' });
    if (error) console.error('Sign-out failed:', error.message);
    navigate('/', { replace: true });
  }, [supabase, navigate]);
  return { signOut, leaving };
}
