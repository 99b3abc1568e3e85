import { Flex, IconButton, Stack, Text } from '@chakra-ui/react';
import { LuFileText } from 'react-icons/lu';
import { formatDate, formatMoney } from '../../../lib/format';
import { usePlatform } from '../../../lib/platform-context';
import { LoadedList } from '../loaded-list';
import { SectionCard } from '../section-card';
import { StatusBadge } from '../../../components/status-badge';
import type { Load } from '../use-load';
import type { BillingEntry } from './billing-api';

function BillingRow({ entry }: { entry: BillingEntry }) {
  const platform = usePlatform();
  const invoiceUrl = entry.invoice_url;
  return (
    <Flex as="li" align="center" gap="3" borderBottomWidth="1px" py="3" _last={{ borderBottomWidth: 0 }} wrap="wrap">
      <Stack gap="0" flex="1" minW="10rem">
        <Text fontWeight="medium">{entry.description || 'Payment'}</Text>
        <Text fontSize="sm" color="fg.muted">
          {formatDate(entry.date)}
        </Text>
      </Stack>
      <Flex align="center" gap="3" ms="auto">
        <Text fontWeight="semibold">{formatMoney(entry.amount)}</Text>
        <StatusBadge status={entry.status} />
        {invoiceUrl ? (
          // The invoice opens outside the app (a new tab on the web, the system browser on the desktop).
          <IconButton asChild variant="ghost" size="sm" aria-label={`Invoice for ${formatDate(entry.date)}`}>
            <a
              href={invoiceUrl}
              target="_blank"
              rel="noopener noreferrer"
              onClick={(event) => {
                event.preventDefault();
                platform.openExternal(invoiceUrl);
              }}
            >
              <LuFileText />
            </a>
          </IconButton>
        ) : (
          <Stack w="8" aria-hidden />
        )}
      </Flex>
    </Flex>
  );
}

export function BillingHistoryCard({ load }: { load: Load<BillingEntry[]> }) {
  return (
    <SectionCard title="Billing History" description="Every charge on your account, newest first.">
      <LoadedList
        load={load}
        errorMessage="We couldn't load your billing history."
        emptyText="No billing history available"
        testId="billing-history"
      >
        {(entry) => <BillingRow key={entry.id} entry={entry} />}
      </LoadedList>
    </SectionCard>
  );
}
