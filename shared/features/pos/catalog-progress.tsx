import { Progress, Stack, Text } from '@chakra-ui/react';
import type { LoadProgress } from './catalog-packed-store';

/** "Loading catalog 340,000 of about 1,000,000": the estimate until the end, the exact count once loaded. */
export function progressLabel(p: LoadProgress): string {
  if (p.done) return `Catalog loaded: ${p.loaded.toLocaleString('en-US')} items`;
  if (p.total === null) return `Loading catalog: ${p.loaded.toLocaleString('en-US')} items`;
  return `Loading catalog ${p.loaded.toLocaleString('en-US')} of about ${Math.max(p.total, p.loaded).toLocaleString('en-US')}`;
}

/**
 * The register's cold load, shown to the cashier (issue 32): at 1,000,000 variants the first load of a device takes
 * tens of seconds, and a till that looks idle is restarted. The bar's value is the share of the catalog read
 * (catalog-store.ts: progressTracker); the label counts the items.
 */
export function CatalogProgress({ progress }: { progress: LoadProgress }) {
  const percent = Math.round(progress.fraction * 100);
  const label = progressLabel(progress);
  return (
    <Stack gap="1" data-testid="pos-catalog-progress" data-done={progress.done ? 'true' : 'false'}>
      {/* The bar (its track, role progressbar) is named by the label, so a screen reader says the count too. */}
      <Progress.Root value={percent} size="sm" translations={{ value: () => label }}>
        <Progress.Track><Progress.Range /></Progress.Track>
      </Progress.Root>
      <Text fontSize="sm" color="fg.muted" role="status">{label}</Text>
    </Stack>
  );
}
