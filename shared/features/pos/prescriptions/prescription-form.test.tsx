import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { linesNeedingPrescription, prescriptionPayload, type Prescription } from './prescription';
import { PrescriptionForm, RECORDS_NOT_VERIFICATION } from './prescription-form';

/**
 * The register's prescription form (ADR 0390): it refuses what post_sale's private.prescription_problem refuses
 * (tests/db/prescriptions.test.ts covers the database), and records a good one as the outbox sends it.
 */
const today = '2026-12-02';

function renderForm() {
  const onSave = vi.fn<(p: Prescription) => void>();
  const onRemove = vi.fn();
  render(<ChakraProvider value={defaultSystem}>
    <PrescriptionForm itemName="Oxycodone 5 mg" today={today} onSave={onSave} onRemove={onRemove} />
  </ChakraProvider>);
  return { onSave, onRemove, user: userEvent.setup() };
}

async function fill(user: ReturnType<typeof userEvent.setup>, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    const field = screen.getByLabelText(label);
    await user.clear(field);
    if (value) await user.type(field, value);
  }
}

describe('PrescriptionForm', () => {
  it('says these are records that help comply, not a verification', () => {
    renderForm();
    expect(screen.getByText(RECORDS_NOT_VERIFICATION)).toBeTruthy();
    expect(RECORDS_NOT_VERIFICATION).toMatch(/does not verify/);
  });

  it('refuses an empty prescriber, a future date and more refills remaining than authorised', async () => {
    const { onSave, user } = renderForm();
    await fill(user, { 'Prescription number': 'RX-1', 'Date written': '2026-12-03', 'Refills authorised': '1', 'Refills remaining': '2' });
    await user.click(screen.getByRole('button', { name: 'Record prescription' }));
    expect(await screen.findByText('Enter the prescriber (2 to 120 characters).')).toBeTruthy();
    expect(screen.getByText('The date written is not after today.')).toBeTruthy();
    expect(screen.getByText('Refills remaining are at most the refills authorised.')).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();
  });

  it('records a good one, sent as post_sale reads it', async () => {
    const { onSave, user } = renderForm();
    await fill(user, { Prescriber: ' Dr. Ana Ruiz ', 'Prescription number': 'RX-20261', 'Date written': '2026-11-30',
      'Refills authorised': '2', 'Refills remaining': '1' });
    await user.click(screen.getByRole('button', { name: 'Record prescription' }));
    await vi.waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    const saved = onSave.mock.calls[0]?.[0] as Prescription;
    expect(prescriptionPayload(saved)).toEqual({ prescriber: 'Dr. Ana Ruiz', number: 'RX-20261', written_on: '2026-11-30',
      refills_authorised: 2, refills_remaining: 1 });
  });

  it('remove takes the item off instead', async () => {
    const { onRemove, onSave, user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Remove the item' }));
    expect(onRemove).toHaveBeenCalledTimes(1);
    expect(onSave).not.toHaveBeenCalled();
  });
});

describe('linesNeedingPrescription', () => {
  const item = (variantId: string) => ({ variantId, name: variantId, sku: variantId, barcodes: [], price: 100, taxRate: 0, unit: 'each' as const });
  it('lists prescription-only lines without one, in cart order', () => {
    const rx: Prescription = { prescriber: 'Dr X', number: '1', writtenOn: today, refillsAuthorised: 0, refillsRemaining: 0 };
    const lines = [{ item: item('a'), qty: 1, discount: 0 }, { item: item('rx1'), qty: 1, discount: 0, prescription: rx },
      { item: item('rx2'), qty: 2, discount: 0 }];
    expect(linesNeedingPrescription(lines, { rx1: true, rx2: true }).map((l) => l.item.variantId)).toEqual(['rx2']);
    expect(linesNeedingPrescription(lines, undefined)).toEqual([]);
  });
});
