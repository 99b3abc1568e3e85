import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { BarcodeAdder, ProductDetailsForm, StorePriceForm, VariantEditForm } from './product-edit-forms';

const renderUi = (ui: ReactNode) => render(<ChakraProvider value={defaultSystem}>{ui}</ChakraProvider>);

// A first Chakra render in jsdom takes seconds on a loaded machine.
describe('product edit forms', { timeout: 30_000 }, () => {
  it('VariantEditForm refuses a bad SKU and a negative price, and sends the SKU upper-cased', async () => {
    const onSubmit = vi.fn(async () => undefined);
    renderUi(<VariantEditForm label="M" showCost initial={{ sku: 'TEE-M', price: '12.50', cost: '' }} onSubmit={onSubmit} />);
    const user = userEvent.setup();
    const sku = screen.getByRole('textbox', { name: 'SKU' });
    await user.clear(sku);
    await user.type(sku, 'tee m!');
    await user.clear(screen.getByRole('textbox', { name: 'Price' }));
    await user.type(screen.getByRole('textbox', { name: 'Price' }), '-3');
    await user.click(screen.getByRole('button', { name: 'Save M' }));
    expect(await screen.findByText('Use letters, digits and . _ / - (40 at most)')).toBeVisible();
    expect(screen.getByText('Enter a price such as 12.50 (not negative)')).toBeVisible();
    await user.clear(sku);
    await user.type(sku, 'tee-m2');
    await user.clear(screen.getByRole('textbox', { name: 'Price' }));
    await user.type(screen.getByRole('textbox', { name: 'Price' }), '13');
    await user.type(screen.getByRole('textbox', { name: 'Cost' }), '4.2');
    await user.click(screen.getByRole('button', { name: 'Save M' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect((onSubmit.mock.calls[0] as unknown as [unknown])[0]).toEqual({ sku: 'TEE-M2', price: '13', cost: '4.2' });
  });

  it('VariantEditForm hides the cost from those without cost access', () => {
    renderUi(<VariantEditForm label="M" showCost={false} initial={{ sku: 'TEE-M', price: '12.50', cost: '' }} onSubmit={vi.fn()} />);
    expect(screen.queryByRole('textbox', { name: 'Cost' })).toBeNull();
  });

  it('BarcodeAdder names a wrong check digit before sending, then sends the kind with the code', async () => {
    const onAdd = vi.fn(async () => undefined);
    renderUi(<BarcodeAdder label="M" onAdd={onAdd} />);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'New barcode for M' }), '96385075');
    await user.click(screen.getByRole('button', { name: 'Add barcode to M' }));
    expect(await screen.findByText('The check digit is wrong: this code would end in 4')).toBeVisible();
    expect(onAdd).not.toHaveBeenCalled();
    await user.clear(screen.getByRole('textbox', { name: 'New barcode for M' }));
    await user.type(screen.getByRole('textbox', { name: 'New barcode for M' }), '96385074{Enter}');
    await waitFor(() => expect(onAdd).toHaveBeenCalledWith('96385074', 'ean8'));
  });

  it('ProductDetailsForm refuses a tax rate over 100 and an empty name', async () => {
    const onSubmit = vi.fn(async () => undefined);
    renderUi(<ProductDetailsForm categories={[{ id: 'c1', name: 'Tops' }]} onSubmit={onSubmit}
      initial={{ name: 'Tee', brand: '', categoryId: '', unit: 'each', taxRate: '', trackStock: true, hasLots: false, requiresExpiry: false }} />);
    const user = userEvent.setup();
    await user.clear(screen.getByRole('textbox', { name: /^Name/ }));
    await user.type(screen.getByRole('textbox', { name: /^Tax rate/ }), '120');
    await user.click(screen.getByRole('button', { name: 'Save product' }));
    expect(await screen.findByText('Enter a name')).toBeVisible();
    expect(screen.getByText("Enter a rate from 0 to 100 (blank: the store's rate)")).toBeVisible();
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Linen Tee');
    await user.clear(screen.getByRole('textbox', { name: /^Tax rate/ }));
    await user.type(screen.getByRole('textbox', { name: /^Tax rate/ }), '7.5');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Category' }), 'c1');
    await user.click(screen.getByRole('button', { name: 'Save product' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect((onSubmit.mock.calls[0] as unknown as [unknown])[0]).toMatchObject({ name: 'Linen Tee', taxRate: '7.5', categoryId: 'c1' });
  });

  it('StorePriceForm needs a variant and a price', async () => {
    const onSubmit = vi.fn(async () => undefined);
    renderUi(<StorePriceForm stores={[{ id: 's1', name: 'North' }]} variants={[{ id: 'v1', label: 'S' }, { id: 'v2', label: 'M' }]} onSubmit={onSubmit} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Set price' }));
    expect(await screen.findByText('Choose a variant')).toBeVisible();
    expect(screen.getByText('Enter a price such as 12.50 (not negative)')).toBeVisible();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Variant' }), 'v2');
    await user.type(screen.getByRole('textbox', { name: 'Store price' }), '9.99');
    await user.click(screen.getByRole('button', { name: 'Set price' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ storeId: 's1', variantId: 'v2', price: '9.99' }));
  });

  it('StorePriceForm checks the price in the chosen store\'s currency digits', async () => {
    const onSubmit = vi.fn(async () => undefined);
    renderUi(<StorePriceForm stores={[{ id: 's1', name: 'Tokyo', currency: 'JPY' }, { id: 's2', name: 'Kuwait City', currency: 'KWD' }]}
      variants={[{ id: 'v1', label: 'S' }]} onSubmit={onSubmit} />);
    const user = userEvent.setup();
    const price = screen.getByRole('textbox', { name: 'Store price' });
    await user.type(price, '12.50');
    await user.click(screen.getByRole('button', { name: 'Set price' }));
    expect(await screen.findByText('Enter a price such as 1250 (not negative)')).toBeVisible();
    expect(onSubmit).not.toHaveBeenCalled();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Store' }), 's2');
    await user.clear(price);
    await user.type(price, '1.250');
    await user.click(screen.getByRole('button', { name: 'Set price' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ storeId: 's2', variantId: 'v1', price: '1.250' }));
  });
});
