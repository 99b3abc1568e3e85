import { useState } from 'react';
import { Badge, Box, Checkbox, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { formatDateTime } from '../../lib/format';
import { useSupabase } from '../../lib/platform-context';
import { fetchFlaggedShifts, reviewShift, shiftReasonSchema, type FlaggedShift } from './flagged-shifts-api';
import { ReportState, useReport, type TabProps } from './report-tabs';
import { minorToDecimal } from './reports-csv';
import { ReviewReasonForm } from './review-reason-form';

const money = (minor: number | null, currency: string) => (minor === null ? '—' : `${minorToDecimal(minor, currency)} ${currency}`);
const span = (opened: string | null, closed: string | null) =>
  `${formatDateTime(opened)} – ${closed ? formatDateTime(closed) : 'still open'}`;

function ShiftCard({ shift, onResolved }: { shift: FlaggedShift; onResolved: () => void }) {
  const supabase = useSupabase();
  return (
    <Box as="li" borderWidth="1px" rounded="lg" p="3" bg="bg" data-testid="flagged-shift">
      <HStack justify="space-between" flexWrap="wrap" gap="2">
        <Text fontWeight="semibold">
          {shift.register_name} · {shift.store_name} · {shift.cashier_name ?? 'a former member'}
        </Text>
        {shift.reviewed_at ? <Badge colorPalette="green">Resolved</Badge> : <Badge colorPalette="orange">To review</Badge>}
      </HStack>
      <Text fontSize="sm" color="fg.muted">
        Opened offline while another shift was open on this register: {span(shift.opened_at, shift.closed_at)}
      </Text>
      <Text fontSize="sm" data-testid="flagged-shift-totals">
        {shift.sales_count} {shift.sales_count === 1 ? 'sale' : 'sales'}, {money(shift.gross, shift.currency)}; float{' '}
        {money(shift.opening_float, shift.currency)}
        {shift.closed_at ? `; counted ${money(shift.counted_total, shift.currency)}, difference ${money(shift.difference, shift.currency)}` : ''}
      </Text>
      <Text fontSize="sm" data-testid="flagged-shift-other">
        {shift.other_shift_id
          ? `Overlapped the shift of ${shift.other_cashier_name ?? 'a former member'}: ${span(shift.other_opened_at, shift.other_closed_at)}`
          : 'The shift it overlapped is no longer known.'}
      </Text>
      <Box mt="2">
        {shift.reviewed_at ? (
          <Text fontSize="sm">
            {shift.reviewer_name ?? 'A former member'} on {formatDateTime(shift.reviewed_at)}: {shift.reason}
          </Text>
        ) : (
          <ReviewReasonForm
            text={shiftReasonSchema.shape.reason} label="Reason" submitLabel="Resolve"
            placeholder="e.g. both drawers counted; the difference is explained"
            save={(reason) => reviewShift(supabase, shift.shift_id, { reason })}
            saved={{ title: 'Shift resolved', what: shift.register_name }} onSaved={onResolved}
          />
        )}
      </Box>
    </Box>
  );
}

/**
 * Shifts a register opened offline while another shift was open on it (ADR 0165): kept and flagged, their sales
 * and close in them. Listed beside the flagged sales for an owner or manager to check the two drawers and resolve
 * each with a reason (ADR 0169). Resolving changes no money.
 */
export function FlaggedShiftsSection({ request }: Pick<TabProps, 'request'>) {
  const [includeReviewed, setIncludeReviewed] = useState(false);
  const [version, setVersion] = useState(0);
  const loaded = useReport(
    `${request.businessId}|${request.storeId}|${includeReviewed}|${version}`,
    (s) => fetchFlaggedShifts(s, { businessId: request.businessId, storeId: request.storeId, includeReviewed }),
  );
  return (
    <Stack gap="3" as="section" aria-labelledby="flagged-shifts-title" data-testid="report-flagged-shifts">
      <Heading as="h3" size="sm" id="flagged-shifts-title">Shifts opened in conflict</Heading>
      <Checkbox.Root checked={includeReviewed} onCheckedChange={(e) => setIncludeReviewed(e.checked === true)}>
        <Checkbox.HiddenInput />
        <Checkbox.Control />
        <Checkbox.Label>Show resolved shifts</Checkbox.Label>
      </Checkbox.Root>
      <ReportState loaded={loaded}>
        {(rows) => rows.length === 0 ? <Text>No shifts waiting for review.</Text> : (
          <Stack gap="3" as="ul" listStyleType="none">
            {rows.map((shift) => <ShiftCard key={shift.shift_id} shift={shift} onResolved={() => setVersion((v) => v + 1)} />)}
          </Stack>
        )}
      </ReportState>
    </Stack>
  );
}
