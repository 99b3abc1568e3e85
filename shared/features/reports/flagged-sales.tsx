import { useState } from 'react';
import { Badge, Box, Checkbox, HStack, Stack, Text } from '@chakra-ui/react';
import { formatDateTime } from '../../lib/format';
import { useSupabase } from '../../lib/platform-context';
import { describeReason, fetchFlaggedSales, reviewNoteSchema, reviewSale } from './flagged-sales-api';
import { FlaggedCashSection } from './flagged-cash';
import { FlaggedRefundsSection } from './flagged-refunds';
import { FlaggedShiftsSection } from './flagged-shifts';
import { ReportState, useReport, type TabProps } from './report-tabs';
import { minorToDecimal } from './reports-csv';
import { ReviewReasonForm } from './review-reason-form';

/**
 * Sales an offline register kept although the server would have refused them online (ADR 0131): each with its
 * reasons in words, for an owner or manager to check and mark reviewed with a note. Reviews are kept and shown
 * with "Show reviewed". Refunds taken on offline terms (flagged-refunds.tsx), flagged cash in and out
 * (flagged-cash.tsx) and shifts opened in conflict (flagged-shifts.tsx) follow, in their own sections.
 */
export function FlaggedSalesTab({ request }: TabProps) {
  const supabase = useSupabase();
  const [includeReviewed, setIncludeReviewed] = useState(false);
  const [version, setVersion] = useState(0);
  const loaded = useReport(
    `${request.businessId}|${request.storeId}|${includeReviewed}|${version}`,
    (s) => fetchFlaggedSales(s, { businessId: request.businessId, storeId: request.storeId, includeReviewed }),
  );
  return (
    <Stack gap="3" data-testid="report-flagged">
      <Text color="fg.muted">
        A register that was offline never refuses a sale: what the server would have refused is kept and listed here
        for you to check. A review changes no money or stock; correct with a refund or a stock adjustment.
      </Text>
      <Checkbox.Root checked={includeReviewed} onCheckedChange={(e) => setIncludeReviewed(e.checked === true)}>
        <Checkbox.HiddenInput />
        <Checkbox.Control />
        <Checkbox.Label>Show reviewed</Checkbox.Label>
      </Checkbox.Root>
      <ReportState loaded={loaded}>
        {(rows) => rows.length === 0 ? <Text>No sales waiting for review.</Text> : (
          <Stack gap="3" as="ul" listStyleType="none">
            {rows.map((sale) => (
              <Box as="li" key={sale.sale_id} borderWidth="1px" rounded="lg" p="3" bg="bg" data-testid="flagged-sale">
                <HStack justify="space-between" flexWrap="wrap" gap="2">
                  <Text fontWeight="semibold">
                    {sale.receipt_number} · {sale.store_name} · {minorToDecimal(sale.total, sale.currency)} {sale.currency}
                  </Text>
                  {sale.reviewed_at ? <Badge colorPalette="green">Reviewed</Badge> : <Badge colorPalette="orange">To review</Badge>}
                </HStack>
                <Text fontSize="sm" color="fg.muted">
                  Sold {formatDateTime(sale.occurred_at)} by {sale.cashier_name ?? 'a former member'}
                  {sale.offline ? `, synced ${formatDateTime(sale.recorded_at)}` : ''}
                </Text>
                <Stack as="ul" gap="0" ps="5" my="2" fontSize="sm">
                  {sale.review_reasons.map((reason) => <li key={reason}>{describeReason(reason)}</li>)}
                </Stack>
                {sale.reviewed_at ? (
                  <Text fontSize="sm">
                    {sale.reviewer_name ?? 'A former member'} on {formatDateTime(sale.reviewed_at)}: {sale.note}
                  </Text>
                ) : (
                  <ReviewReasonForm
                    text={reviewNoteSchema.shape.note} label="What you found" submitLabel="Mark reviewed"
                    placeholder="e.g. price checked with the supplier list"
                    save={(note) => reviewSale(supabase, sale.sale_id, { note })}
                    saved={{ title: 'Marked as reviewed', what: sale.receipt_number }}
                    onSaved={() => setVersion((v) => v + 1)}
                  />
                )}
              </Box>
            ))}
          </Stack>
        )}
      </ReportState>
      <FlaggedRefundsSection request={request} />
      <FlaggedCashSection request={request} />
      <FlaggedShiftsSection request={request} />
    </Stack>
  );
}
