import { Button, Stack, Text } from '@chakra-ui/react';
import { useEffect } from 'react';
import { LuCircleCheck } from 'react-icons/lu';
import { useNavigate } from 'react-router-dom';
import { AuthLayout } from './spa-auth-layout';

export const AUTH_SUCCESS_REDIRECT_MS = 3000;

/** /auth-success: "All done!", then home after 3 seconds (spec 2, 9). */
export function AuthSuccessPage() {
  const navigate = useNavigate();

  useEffect(() => {
    const timer = setTimeout(() => navigate('/', { replace: true }), AUTH_SUCCESS_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [navigate]);

  return (
    <AuthLayout title="All done!">
      <Stack gap="5" align="stretch">
        <LuCircleCheck size="48" aria-hidden="true" style={{ alignSelf: 'center', color: '#16a34a' }} />
        <Text textAlign="center">Your password has been updated. Taking you to Storewise in 3 seconds…</Text>
        <Button onClick={() => navigate('/', { replace: true })}>Continue to Dashboard</Button>
      </Stack>
    </AuthLayout>
  );
}
