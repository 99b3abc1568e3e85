import { lineKey, type CartEntry, type CartLine } from '../cart';
import type { CartState } from '../till-state';
import { PrescriptionForm } from './prescription-form';

/**
 * Asks for the prescription of the first prescription-only line that has none (ADR 0390); recording it keeps it on
 * that line of the cart (and so in the kept draft, a parked cart and the outbox's payload).
 */
export function PrescriptionPrompt({ waiting, updateCart }: {
  waiting: CartLine[];
  updateCart: (next: (c: CartState) => CartState) => void;
}) {
  const first = waiting[0];
  if (!first) return null;
  const key = lineKey(first);
  const onLine = (change: (e: CartEntry) => CartEntry | null) => updateCart((c) => ({
    ...c, entries: c.entries.flatMap((e) => (lineKey(e) === key ? [change(e)].filter((x): x is CartEntry => x !== null) : [e])),
  }));
  return (
    <PrescriptionForm key={key} itemName={first.item.name}
      onSave={(prescription) => onLine((e) => ({ ...e, prescription }))} onRemove={() => onLine(() => null)} />
  );
}
