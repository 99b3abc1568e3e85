import { Box, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { formatDateTime } from '../../lib/format';
import { describeReason } from './flagged-sales-api';
import { fetchFlaggedCash, type FlaggedCash } from './flagged-cash-api';
import { ReportState, useReport, type TabProps } from './report-tabs';
import { minorToDecimal } from './reports-csv';

function CashCard({ row }: { row: FlaggedCash }) {
  const money = `${minorToDecimal(row.amount, row.currency)} ${row.currency}`;
  return (
    <Box as="li" borderWidth="1px" rounded="lg" p="3" bg="bg" data-testid="flagged-cash">
      <HStack justify="space-between" flexWrap="wrap" gap="2">
        <Text fontWeight="semibold">
          Cash {row.kind === 'in' ? 'in' : 'out'} {money} · {row.store_name}{row.register_name ? `, ${row.register_name}` : ''}
        </Text>
      </HStack>
      <Text fontSize="sm" color="fg.muted">
        {formatDateTime(row.at)}, kept under {row.actor_name ?? 'a former member'}
        {row.claimed_name ? ` (the till had been switched to ${row.claimed_name})` : ''}
      </Text>
      <Text fontSize="sm">Reason given: “{row.reason}”</Text>
      <Stack as="ul" gap="0" ps="5" mt="2" fontSize="sm">
        {row.review_reasons.map((reason) => <li key={reason}>{describeReason(reason)}</li>)}
      </Stack>
    </Box>
  );
}

/**
 * Cash put in or taken out of a drawer under a till switch that could not be verified (ADR 0402), beside the
 * flagged sales and refunds: who it stands under, who the till had been switched to, when, where, how much and why.
 * Nothing to mark here: the drawer's count at close already includes it; a wrong entry is corrected by another.
 */
export function FlaggedCashSection({ request }: Pick<TabProps, 'request'>) {
  const loaded = useReport(`${request.businessId}|${request.storeId}|cash`,
    (s) => fetchFlaggedCash(s, { businessId: request.businessId, storeId: request.storeId }));
  return (
    <Stack gap="3" as="section" aria-labelledby="flagged-cash-title" data-testid="report-flagged-cash">
      <Heading as="h3" size="sm" id="flagged-cash-title">Cash in and out to check</Heading>
      <ReportState loaded={loaded}>
        {(rows) => rows.length === 0 ? <Text>No flagged cash in or out.</Text> : (
          <Stack gap="3" as="ul" listStyleType="none">
            {rows.map((row) => <CashCard key={row.movement_id} row={row} />)}
          </Stack>
        )}
      </ReportState>
    </Stack>
  );
}
