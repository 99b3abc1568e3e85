import { Badge } from '@chakra-ui/react';

/** Colour per status value; anything unknown is grey (the spec's rule for tickets, kept for all). */
const PALETTE: Record<string, string> = {
  // tickets (spec section 4: open blue, resolved green, others grey)
  open: 'blue',
  resolved: 'green',
  // billing history
  paid: 'green',
  pending: 'orange',
  failed: 'red',
  refunded: 'gray',
  // plans
  active: 'green',
  trialing: 'blue',
  past_due: 'orange',
  canceled: 'red',
  expired: 'gray',
};

/** "past_due" -> "Past due". */
export function statusLabel(status: string): string {
  const text = status.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function statusPalette(status: string): string {
  return PALETTE[status] ?? 'gray';
}

export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge colorPalette={statusPalette(status)} variant="subtle" data-status={status}>
      {statusLabel(status)}
    </Badge>
  );
}
