import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { PrinterSettings, ReceiptPrinting } from '../../../platform/platform';
import { PrinterSettingsPanel } from './printer-settings';

const current: PrinterSettings = { mode: 'dialog', deviceName: null, network: null, openDrawerOnCash: true, columns: 48 };

function renderPanel(saveSettings: ReceiptPrinting['saveSettings']) {
  const printing: ReceiptPrinting = {
    print: vi.fn(), saveSettings: vi.fn(saveSettings), getSettings: async () => current,
    listPrinters: async () => [{ name: 'EPSON_TM_T20', displayName: 'EPSON TM-T20' }],
  };
  const onDone = vi.fn();
  render(<ChakraProvider value={defaultSystem}><PrinterSettingsPanel printing={printing} onDone={onDone} /></ChakraProvider>);
  return { printing, onDone };
}

describe('PrinterSettingsPanel', { timeout: 30_000 }, () => {
  it('saves a network printer with its address, port, drawer kick and line width', async () => {
    const { printing, onDone } = renderPanel(async () => ({ ok: true }));
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Print receipts with' }), 'network');
    await userEvent.type(screen.getByRole('textbox', { name: 'Printer address' }), '192.168.1.50');
    await userEvent.click(screen.getByRole('checkbox', { name: /Open the cash drawer/ }));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Characters per line' }), '42');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(printing.saveSettings).toHaveBeenCalledWith({ mode: 'network', deviceName: null,
      network: { host: '192.168.1.50', port: 9100 }, openDrawerOnCash: false, columns: 42 });
    expect(onDone).toHaveBeenCalled();
  });

  it('chooses an installed printer, and shows why main refused a setting', async () => {
    const { printing, onDone } = renderPanel(async () => ({ ok: false, message: '8.8.8.8 is not a local network address.' }));
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Print receipts with' }), 'system');
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Printer' }), 'EPSON_TM_T20');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(printing.saveSettings).toHaveBeenCalledWith(expect.objectContaining({ mode: 'system', deviceName: 'EPSON_TM_T20' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('not a local network address');
    expect(onDone).not.toHaveBeenCalled();
  });
});
