import { useState } from 'react';
import { Button, Stack, Switch, Text } from '@chakra-ui/react';
import { SectionCard } from '../section-card';

/**
 * The spec's two-factor switch: local state only. Real enrolment (auth factors) comes later, so the card
 * says plainly that sign-in does not ask for a code yet.
 */
export function TwoFactorCard() {
  const [enabled, setEnabled] = useState(false);
  return (
    <SectionCard title="Two-Factor Authentication" description="Add an extra layer of security to your account.">
      <Stack gap="3">
        <Switch.Root checked={enabled} onCheckedChange={(event) => setEnabled(event.checked)} colorPalette="blue">
          <Switch.HiddenInput />
          <Switch.Control />
          <Switch.Label>Two-factor authentication</Switch.Label>
        </Switch.Root>
        {enabled && (
          <Stack gap="2" data-testid="two-factor-details">
            <Text fontSize="sm">
              When two-factor authentication is on, signing in asks for a code from your authenticator app.
            </Text>
            <Text fontSize="sm" color="fg.muted">
              Preview: sign-in does not ask for a code yet.
            </Text>
            <div>
              <Button size="sm" variant="outline" disabled title="Coming soon">
                View Recovery Codes
              </Button>
            </div>
          </Stack>
        )}
      </Stack>
    </SectionCard>
  );
}
