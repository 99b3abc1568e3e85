import { useEffect, useState } from 'react';
import { Alert, Link } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { useSupabase } from '../../../lib/platform-context';

/**
 * An admin without an authenticator app is asked to set one up (docs/adr/0207): once it exists, the database
 * refuses admin work to any session that has not given its code.
 */
export function AdminTwoFactorNotice() {
  const supabase = useSupabase();
  const [missing, setMissing] = useState(false);
  useEffect(() => {
    let current = true;
    void supabase.rpc('admin_without_second_factor').then(({ data, error }) => {
      if (error) console.warn('Two-factor check failed:', error.message);
      if (current) setMissing(data === true);
    });
    return () => {
      current = false;
    };
  }, [supabase]);
  if (!missing) return null;
  return (
    <Alert.Root status="warning" mb="4" data-testid="admin-two-factor-notice">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>Protect the admin panel with two-factor sign-in</Alert.Title>
        <Alert.Description>
          Your account opens every business on the platform with a password alone.{' '}
          <Link asChild color="fg.info">
            <RouterLink to="/dashboard/security">Set up an authenticator app</RouterLink>
          </Link>
          .
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}
