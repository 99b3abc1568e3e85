import { useState } from 'react';
import { Box, Button, Heading, Stack, Text } from '@chakra-ui/react';
import { BrandLogo } from '../brand-logo';
import { notify } from '../toaster';
import { redeemRecoveryCode, verifyCode } from '../../lib/two-factor-api';
import type { StorewiseClient } from '../../lib/supabase-client';
import { CodeForm } from './code-form';
import { RecoveryCodeForm } from './recovery-code-form';

/** The step after the password when the account has an authenticator app: a code, or a recovery code. */
export function SecondFactorScreen({ supabase, factorId, onSignOut }: {
  supabase: StorewiseClient;
  factorId: string;
  onSignOut: () => void;
}) {
  const [recovering, setRecovering] = useState(false);
  return (
    <Box minH="100dvh" display="flex" alignItems="center" justifyContent="center" p="4" bg="bg.subtle">
      <Stack as="main" gap="5" w="full" maxW="sm" bg="bg" borderWidth="1px" rounded="lg" p="6" shadow="sm">
        <BrandLogo />
        <Stack gap="1">
          <Heading as="h1" size="lg">
            Two-factor sign-in
          </Heading>
          <Text color="fg.muted" fontSize="sm">
            {recovering
              ? 'Type one of the recovery codes you saved. It removes your authenticator app so you can set up a new one.'
              : 'Open your authenticator app and type the 6-digit code for Storewise.'}
          </Text>
        </Stack>
        {recovering ? (
          <RecoveryCodeForm
            onCode={async (code) => {
              await redeemRecoveryCode(supabase, code);
              notify.success('Signed in', 'Your authenticator app was removed. Set up a new one under Security.');
            }}
          />
        ) : (
          <CodeForm submitLabel="Verify" onCode={(code) => verifyCode(supabase, factorId, code)} />
        )}
        <Stack gap="1">
          <Button variant="plain" size="sm" color="fg.info" onClick={() => setRecovering(!recovering)}>
            {recovering ? 'Use a code from the app instead' : 'Lost your phone? Use a recovery code'}
          </Button>
          <Button variant="ghost" size="sm" onClick={onSignOut}>
            Sign out
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}
