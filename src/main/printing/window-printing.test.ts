import { describe, expect, it } from 'vitest';
import { listWindowPrinters, printWindow } from './window-printing';

describe('window printing', () => {
  it('prints silently to the chosen device, without margins, and reports the failure reason', async () => {
    const calls: unknown[] = [];
    const contents = {
      print: (options: unknown, callback?: (success: boolean, reason: string) => void) => {
        calls.push(options);
        callback?.(calls.length === 1, 'Invalid deviceName provided');
      },
      getPrintersAsync: async () => [{ name: 'EPSON_TM_T20', displayName: 'EPSON TM-T20', description: '', options: {} }],
    };
    expect(await printWindow(contents as never, { silent: true, deviceName: 'EPSON_TM_T20' })).toEqual({ ok: true, reason: '' });
    expect(calls[0]).toEqual({ silent: true, deviceName: 'EPSON_TM_T20', printBackground: false, margins: { marginType: 'none' } });
    expect(await printWindow(contents as never, { silent: false })).toEqual({ ok: false, reason: 'Invalid deviceName provided' });
    expect(calls[1]).toEqual({ silent: false, printBackground: false, margins: { marginType: 'none' } });
    expect(await listWindowPrinters(contents as never)).toEqual([{ name: 'EPSON_TM_T20', displayName: 'EPSON TM-T20' }]);
    expect(await printWindow(null, { silent: true })).toMatchObject({ ok: false });
  });
});
