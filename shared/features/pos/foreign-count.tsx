import { Grid, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { formatMinor, parseMinor } from '../../lib/money';
import type { ForeignDrawer } from './pos-api';

/**
 * The drawer's foreign cash at the close (issue 29, ADR 0395): one amount per currency held, typed in that
 * currency, beside what the shift's foreign cash tenders make expected (when the X report is at hand).
 */
export function ForeignCount({ currencies, expected, texts, onChange }: {
  currencies: string[];
  expected: ForeignDrawer[] | null;
  texts: Record<string, string>;
  onChange: (texts: Record<string, string>) => void;
}) {
  if (currencies.length === 0) return null;
  return (
    <Stack gap="1" role="group" aria-label="Foreign cash counted">
      <Text fontWeight="semibold">Foreign cash in the drawer</Text>
      <Grid templateColumns={{ base: '1fr', md: 'repeat(2, 1fr)' }} gap="2">
        {currencies.map((c) => {
          const due = expected?.find((e) => e.currency === c)?.expected;
          const counted = foreignCounted(texts)[c];
          return (
            <HStack key={c} gap="2">
              <Text minW="12" fontSize="sm">{c}</Text>
              <Input size="sm" inputMode="decimal" aria-label={`Counted ${c}`} value={texts[c] ?? ''}
                onChange={(e) => onChange({ ...texts, [c]: e.target.value })} />
              {due !== undefined && (
                <Text fontSize="sm" color="fg.muted" data-testid={`foreign-expected-${c}`}>
                  expected {formatMinor(due, c)}{counted !== undefined ? ` · difference ${formatMinor(counted - due, c)}` : ''}
                </Text>
              )}
            </HStack>
          );
        })}
      </Grid>
    </Stack>
  );
}

/** The typed counts as close_shift's `foreign` object (minor units per currency); blanks and non-amounts are left out. */
export function foreignCounted(texts: Record<string, string>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [currency, text] of Object.entries(texts)) {
    const minor = text.trim() ? parseMinor(text, currency) : null;
    if (minor !== null && minor >= 0) out[currency] = minor;
  }
  return out;
}
