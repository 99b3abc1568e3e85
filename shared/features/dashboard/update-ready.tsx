import { Button, HStack, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { usePlatform } from '../../lib/platform-context';

/**
 * Starts the web app's offline copy (the service worker, docs/adr/0200) when the dashboard opens, and says when
 * a newer version has been installed in the background. The tab keeps the version it started with (never half of
 * each) until the person chooses to reload: a cashier finishes the sale first; the cart survives the reload.
 */
export function UpdateReady() {
  const platform = usePlatform();
  const [apply, setApply] = useState<(() => void) | null>(null);
  useEffect(() => platform.offlineShell?.start((next) => setApply(() => next)), [platform]);
  if (!apply) return null;
  return (
    <HStack role="status" justify="center" gap="3" px="4" py="2" bg="blue.subtle" color="blue.fg" wrap="wrap" data-testid="update-ready">
      <Text textStyle="sm">A new version of Storewise is ready.</Text>
      <Button size="xs" colorPalette="blue" onClick={apply}>Reload to update</Button>
    </HStack>
  );
}
