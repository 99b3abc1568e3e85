import { useState } from 'react';
import { Badge, Box, Checkbox, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { formatDateTime } from '../../lib/format';
import { useSupabase } from '../../lib/platform-context';
import { describeReason, reviewNoteSchema } from './flagged-sales-api';
import { fetchFlaggedRefunds, reviewRefund, type FlaggedRefund } from './flagged-refunds-api';
import { ReportState, useReport, type TabProps } from './report-tabs';
import { minorToDecimal } from './reports-csv';
import { ReviewReasonForm } from './review-reason-form';

function RefundCard({ refund, onReviewed }: { refund: FlaggedRefund; onReviewed: () => void }) {
  const supabase = useSupabase();
  const money = (minor: number) => `${minorToDecimal(minor, refund.currency)} ${refund.currency}`;
  return (
    <Box as="li" borderWidth="1px" rounded="lg" p="3" bg="bg" data-testid="flagged-refund">
      <HStack justify="space-between" flexWrap="wrap" gap="2">
        <Text fontWeight="semibold">
          Refund of {money(refund.total)} to {refund.tender_kind} · {refund.store_name}
        </Text>
        {refund.reviewed_at ? <Badge colorPalette="green">Reviewed</Badge> : <Badge colorPalette="orange">To review</Badge>}
      </HStack>
      <Text fontSize="sm" color="fg.muted">
        Refunded {formatDateTime(refund.occurred_at)} by {refund.actor_name ?? 'a former member'}
        {refund.offline ? `, synced ${formatDateTime(refund.recorded_at)}` : ''}
      </Text>
      <Text fontSize="sm" data-testid="flagged-refund-sale">
        Of sale {refund.sale_receipt_number} ({money(refund.sale_total)})
        {refund.sale_review_reasons.length > 0 ? ', itself flagged for review' : ''}
        {refund.reason ? ` · “${refund.reason}”` : ''}
      </Text>
      <Stack as="ul" gap="0" ps="5" my="2" fontSize="sm">
        {refund.review_reasons.map((reason) => <li key={reason}>{describeReason(reason)}</li>)}
      </Stack>
      {refund.reviewed_at ? (
        <Text fontSize="sm">{refund.reviewer_name ?? 'A former member'} on {formatDateTime(refund.reviewed_at)}: {refund.note}</Text>
      ) : (
        <ReviewReasonForm
          text={reviewNoteSchema.shape.note} label="What you found" submitLabel="Mark reviewed"
          placeholder="e.g. the customer brought the item back; receipt checked"
          save={(note) => reviewRefund(supabase, refund.refund_id, { note })}
          saved={{ title: 'Marked as reviewed', what: `refund of ${refund.sale_receipt_number}` }}
          onSaved={onReviewed}
        />
      )}
    </Box>
  );
}

/**
 * Refunds taken on offline terms (no manager's approval, after the shift closed, clamped), beside the flagged
 * sales (ADR 0171): each with the sale it refunds, for an owner or another manager to check and mark reviewed.
 */
export function FlaggedRefundsSection({ request }: Pick<TabProps, 'request'>) {
  const [includeReviewed, setIncludeReviewed] = useState(false);
  const [version, setVersion] = useState(0);
  const loaded = useReport(
    `${request.businessId}|${request.storeId}|${includeReviewed}|${version}|refunds`,
    (s) => fetchFlaggedRefunds(s, { businessId: request.businessId, storeId: request.storeId, includeReviewed }),
  );
  return (
    <Stack gap="3" as="section" aria-labelledby="flagged-refunds-title" data-testid="report-flagged-refunds">
      <Heading as="h3" size="sm" id="flagged-refunds-title">Refunds to review</Heading>
      <Checkbox.Root checked={includeReviewed} onCheckedChange={(e) => setIncludeReviewed(e.checked === true)}>
        <Checkbox.HiddenInput />
        <Checkbox.Control />
        <Checkbox.Label>Include reviewed refunds</Checkbox.Label>
      </Checkbox.Root>
      <ReportState loaded={loaded}>
        {(rows) => rows.length === 0 ? <Text>No refunds waiting for review.</Text> : (
          <Stack gap="3" as="ul" listStyleType="none">
            {rows.map((refund) => <RefundCard key={refund.refund_id} refund={refund} onReviewed={() => setVersion((v) => v + 1)} />)}
          </Stack>
        )}
      </ReportState>
    </Stack>
  );
}
