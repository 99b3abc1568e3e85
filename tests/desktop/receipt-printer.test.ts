/**
 * Receipt printing from the main process against a fake network printer (a net.Server speaking the little of
 * ESC/POS a printer answers: DLE EOT 4 paper status). The print call goes through the real IPC handler (sender
 * check, zod) and print service, and the test reads the bytes the printer received: init, code page, text lines,
 * the receipt number as a CODE128 barcode (GS k), the cut (GS V) and the drawer kick (ESC p) for cash only.
 * Failures (connection refused, no answer, out of paper, a host off the LAN) come back as messages for the
 * cashier, never as a thrown error, and print nothing.
 */
import { once } from 'node:events';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { IPC, type PrintableReceipt, type PrintableSlip, type PrinterSettings, type PrintOutcome } from '../../src/ipc-contract';
import { registerIpcHandlers, type InvokeEventLike } from '../../src/main/ipc-handlers';
import { sendToNetworkPrinter } from '../../src/main/printing/network-printer';
import { createPrintService } from '../../src/main/printing/print-service';
import { defaultPrinterSettings } from '../../src/main/printing/printer-settings';
import { createMemoryStore } from '../../src/main/credential-store';
import { createSessionVault } from '../../src/main/session-vault';

const APP_FRAME: InvokeEventLike = { senderFrame: { url: 'app://storewise/index.html#/dashboard/pos', parent: null } };
const STATUS_REQUEST = Buffer.from([0x10, 0x04, 0x04]);

interface FakePrinter {
  port: number;
  /** Everything each connection sent, once it closed its side. */
  jobs: Buffer[];
  nextJob(): Promise<Buffer>;
  close(): Promise<void>;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** status: the byte answered to DLE EOT 4 (0x12 = paper present), or null for a printer that never answers. */
async function fakePrinter(status: number | null = 0x12): Promise<FakePrinter> {
  const jobs: Buffer[] = [];
  const waiting: ((job: Buffer) => void)[] = [];
  const server = createServer((socket) => {
    const chunks: Buffer[] = [];
    let answered = false;
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (status !== null && !answered && Buffer.concat(chunks).includes(STATUS_REQUEST)) {
        answered = true;
        socket.write(Buffer.from([status]));
      }
    });
    socket.on('error', () => undefined);
    socket.on('end', () => {
      const job = Buffer.concat(chunks);
      jobs.push(job);
      waiting.shift()?.(job);
      socket.end();
    });
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    jobs,
    nextJob: () => new Promise((resolve) => waiting.push(resolve)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function register(managedPort: number, settings: Partial<PrinterSettings> = {}, timeoutMs = 2000) {
  const handlers = new Map<string, (event: InvokeEventLike, ...args: unknown[]) => unknown>();
  const managed = { host: '127.0.0.1', port: managedPort };
  let saved: PrinterSettings = { ...defaultPrinterSettings(managed), ...settings };
  const printing = createPrintService({
    managed,
    loadSettings: async () => saved,
    saveSettings: async (next) => void (saved = next),
    lookup: async () => [{ address: '93.184.216.34', family: 4 }],
    sendRaw: (request) => sendToNetworkPrinter({ ...request, timeoutMs }),
    listPrinters: async () => [],
    printPage: async () => ({ ok: true, reason: '' }),
    log: () => undefined,
  });
  registerIpcHandlers({ handle: (channel, listener) => void handlers.set(channel, listener) }, {
    isAppUrl: (url) => url.startsWith('app://storewise/'),
    isAllowedExternal: () => false,
    openExternal: async () => undefined,
    vault: createSessionVault(createMemoryStore(), 'test'),
    appVersion: '0.0.0',
    appConfig: { ok: false, message: 'n/a' },
    persistenceWarning: null,
    printing,
    log: () => undefined,
  });
  const print = async (receipt: unknown, options: unknown = { openDrawer: true }) =>
    (await handlers.get(IPC.printReceipt)?.(APP_FRAME, receipt, options)) as PrintOutcome;
  const printSlip = async (slip: unknown, options: unknown = { openDrawer: false }) =>
    (await handlers.get(IPC.printSlip)?.(APP_FRAME, slip, options)) as PrintOutcome;
  return { print, printSlip, handlers };
}

const receipt: PrintableReceipt = {
  receiptNumber: 'DT1-000042',
  occurredAt: '2026-11-22T18:30:00.000Z',
  storeName: 'Fresh Corner',
  header: '12 Main St',
  footer: 'Thank you!',
  currency: 'USD',
  // A name carrying ESC p (drawer kick) and GS V (cut): printed as text, never as commands.
  lines: [{ name: 'Tea \x1bp\x00\x19\xfa \x1dV\x00 leaves', qty: 2, unitPrice: 1400, total: 2800 },
    { name: 'Café au lait', qty: 1, unitPrice: 350, total: 350 }],
  subtotal: 3150,
  discount: 0,
  tax: 280,
  total: 3430,
  taxByRate: [{ rate: 8.875, tax: 280 }],
  tenders: [{ kind: 'cash', amount: 3430, tendered: 5000, change: 1570 }],
  pending: false,
};

const count = (haystack: Buffer, needle: number[]) => {
  let n = 0;
  for (let i = haystack.indexOf(Buffer.from(needle)); i !== -1; i = haystack.indexOf(Buffer.from(needle), i + 1)) n += 1;
  return n;
};
const ESC_P = [0x1b, 0x70];
const GS_V = [0x1d, 0x56];
const barcode = [0x1d, 0x6b, 73, 12, 0x7b, 0x42, ...Buffer.from('DT1-000042')];

describe('network receipt printer (ESC/POS over TCP)', () => {
  it('prints a cash sale: status check, init, text, CODE128 receipt number, cut, then the drawer kick', async () => {
    const printer = await fakePrinter();
    const { print } = register(printer.port);
    const job = printer.nextJob();
    expect(await print(receipt)).toEqual({ ok: true, via: 'network' });
    const bytes = await job;
    expect([...bytes.subarray(0, 8)]).toEqual([0x10, 0x04, 0x04, 0x1b, 0x40, 0x1b, 0x74, 16]);
    const text = bytes.toString('latin1');
    for (const line of ['Fresh Corner\n', '12 Main St\n', 'Receipt DT1-000042\n', 'Caf\u00e9 au lait\n', 'Thank you!\n']) {
      expect(text).toContain(line);
    }
    expect(text).toMatch(/ {2}2 x \$14\.00 +\$28\.00\n/);
    expect(text).toMatch(/TOTAL +\$34\.30\n/);
    expect(text).toMatch(/Tax 8\.875% +\$2\.80\n/);
    expect(text).toMatch(/Cash +\$50\.00\nChange +\$15\.70\n/);
    // Each line is 48 columns at most (an 80 mm printer's font A).
    const plain = text.split('\n').filter((l) => [...l].every((ch) => ch.charCodeAt(0) >= 0x20));
    expect(plain.length).toBeGreaterThan(10);
    expect(Math.max(...plain.map((l) => l.length))).toBeLessThanOrEqual(48);
    const at = { barcode: bytes.indexOf(Buffer.from(barcode)), cut: bytes.indexOf(Buffer.from([...GS_V, 66, 3])),
      kick: bytes.indexOf(Buffer.from([...ESC_P, 0, 25, 250])) };
    expect(at.barcode).toBeGreaterThan(text.indexOf('TOTAL'));
    expect(at.cut).toBeGreaterThan(at.barcode);
    expect(at.kick).toBeGreaterThan(at.cut);
    expect(at.kick + 5).toBe(bytes.length);
    // The product name's ESC p and GS V arrived as spaces: one drawer kick, one cut.
    expect(count(bytes, ESC_P)).toBe(1);
    expect(count(bytes, GS_V)).toBe(1);
  });

  it('a card sale, or a device set not to, does not open the drawer', async () => {
    const printer = await fakePrinter();
    const card = { ...receipt, tenders: [{ kind: 'card' as const, amount: 3430, tendered: 3430, change: 0 }] };
    const job = printer.nextJob();
    expect(await register(printer.port).print(card, { openDrawer: false })).toMatchObject({ ok: true });
    expect(count(await job, ESC_P)).toBe(0);
    const job2 = printer.nextJob();
    expect(await register(printer.port, { openDrawerOnCash: false }).print(receipt, { openDrawer: true })).toMatchObject({ ok: true });
    const bytes = await job2;
    expect(count(bytes, ESC_P)).toBe(0);
    expect(count(bytes, GS_V)).toBe(1);
  });

  it('connection refused: the cashier is told, nothing throws', async () => {
    const printer = await fakePrinter();
    await printer.close();
    const outcome = await register(printer.port).print(receipt);
    expect(outcome).toMatchObject({ ok: false, code: 'refused' });
    expect(outcome.ok === false && outcome.message).toMatch(/refused the connection/);
  });

  it('a printer that connects but never answers times out and is sent no receipt', async () => {
    const printer = await fakePrinter(null);
    const job = printer.nextJob();
    expect(await register(printer.port, {}, 300).print(receipt))
      .toMatchObject({ ok: false, code: 'timeout', message: expect.stringMatching(/Nothing was printed/) });
    // The status request is all it received before the register hung up.
    expect((await job).equals(STATUS_REQUEST)).toBe(true);
  });

  it('out of paper: reported, and the receipt is not sent', async () => {
    const printer = await fakePrinter(0x12 | 0x60);
    const job = printer.nextJob();
    expect(await register(printer.port).print(receipt)).toMatchObject({ ok: false, code: 'out-of-paper' });
    expect((await job).equals(STATUS_REQUEST)).toBe(true);
  });

  it('never sends to a host off the LAN, nor to a loopback port the device settings name', async () => {
    const printer = await fakePrinter();
    const offLan = register(printer.port, { network: { host: 'printer.example', port: 9100 } });
    expect(await offLan.print(receipt)).toMatchObject({ ok: false, code: 'host-not-allowed' });
    const loopback = register(printer.port + 1, { network: { host: '127.0.0.1', port: printer.port } });
    expect(await loopback.print(receipt)).toMatchObject({ ok: false, code: 'host-not-allowed' });
    expect(printer.jobs).toEqual([]);
  });

  it('prints the business logo first, as a GS v 0 raster fitted to the roll and dithered to 1 bit (docs/adr/0321)', async () => {
    const printer = await fakePrinter();
    // 576 x 2 grey pixels, the left half black, the right half white: as wide as a 48-column roll's 576 dots.
    const width = 576;
    const gray = Buffer.alloc(width * 2, 255);
    for (let y = 0; y < 2; y += 1) gray.fill(0, y * width, y * width + width / 2);
    const logo = { width, height: 2, gray: gray.toString('base64') };
    const job = printer.nextJob();
    expect(await register(printer.port).print({ ...receipt, logo })).toMatchObject({ ok: true });
    const bytes = await job;
    const header = Buffer.from([0x1d, 0x76, 0x30, 0, 72, 0, 2, 0]);
    const at = bytes.indexOf(header);
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(bytes.indexOf(Buffer.from('Fresh Corner')));
    const row = [...Array(36).fill(0xff), ...Array(36).fill(0x00)];
    expect([...bytes.subarray(at + 8, at + 8 + 144)]).toEqual([...row, ...row]);
    // The same logo on a 42-column device: fitted to 512 dots (64 bytes a row), still half black.
    const job42 = printer.nextJob();
    await register(printer.port, { columns: 42 }).print({ ...receipt, logo });
    const bytes42 = await job42;
    const at42 = bytes42.indexOf(Buffer.from([0x1d, 0x76, 0x30, 0, 64, 0, 2, 0]));
    expect(at42).toBeGreaterThan(0);
    expect([...bytes42.subarray(at42 + 8, at42 + 8 + 64)]).toEqual([...Array(32).fill(0xff), ...Array(32).fill(0x00)]);
  });

  it('a logo whose pixels do not match its size, or larger than the contract allows, is refused before printing', async () => {
    const printer = await fakePrinter();
    const { print } = register(printer.port);
    await expect(print({ ...receipt, logo: { width: 10, height: 10, gray: Buffer.alloc(99).toString('base64') } })).rejects.toThrow(/invalid payload/);
    await expect(print({ ...receipt, logo: { width: 2000, height: 1, gray: Buffer.alloc(2000).toString('base64') } })).rejects.toThrow(/invalid payload/);
    await expect(print({ ...receipt, logo: { width: 1, height: 1, gray: '<svg>' } })).rejects.toThrow(/invalid payload/);
    expect(printer.jobs).toEqual([]);
  });

  it('the bridge call takes a structured receipt only: bytes, a host or extra fields are refused', async () => {
    const printer = await fakePrinter();
    const { print } = register(printer.port);
    await expect(print(Uint8Array.from([0x1b, 0x70, 0, 25, 250]))).rejects.toThrow(/invalid payload/);
    await expect(print({ ...receipt, host: '8.8.8.8', port: 9100 })).rejects.toThrow(/invalid payload/);
    await expect(print(receipt, { openDrawer: true, host: '8.8.8.8' })).rejects.toThrow(/invalid payload/);
    await expect(print({ ...receipt, receiptNumber: 'DT1\x1b' })).rejects.toThrow(/invalid payload/);
    expect(printer.jobs).toEqual([]);
  });

  it('prints a Z report and a cash refund slip (docs/adr/0150): rows, the refunded receipt as CODE128, cut, drawer only for the refund', async () => {
    const printer = await fakePrinter();
    const { printSlip } = register(printer.port);
    const z: PrintableSlip = {
      title: 'Z report', storeName: 'Fresh Corner', currency: 'USD', occurredAt: '2026-11-22T22:00:00.000Z',
      rows: [{ label: 'Register', amount: null, text: 'Front', bold: false },
        { label: 'Cash expected', amount: 25000, text: null, bold: true },
        { label: 'Cash counted', amount: 24500, text: null, bold: false },
        { label: 'Difference \x1bp\x00', amount: -500, text: null, bold: true }],
      barcode: null, footer: null,
    };
    const job = printer.nextJob();
    expect(await printSlip(z)).toEqual({ ok: true, via: 'network' });
    const report = await job;
    const text = report.toString('latin1');
    expect(text).toContain('Z report\n');
    expect(text).toMatch(/Register +Front\n/);
    expect(text).toMatch(/Cash expected +\$250\.00\n/);
    expect(text).toMatch(/Difference {2}p +-\$5\.00\n/);
    expect(count(report, GS_V)).toBe(1);
    // The label's ESC p arrived as spaces, and a report opens no drawer.
    expect(count(report, ESC_P)).toBe(0);

    const refund: PrintableSlip = {
      title: 'Refund', storeName: 'Fresh Corner', currency: 'USD', occurredAt: '2026-11-22T19:00:00.000Z',
      rows: [{ label: 'Original receipt', amount: null, text: 'DT1-000042', bold: false },
        { label: '1 x Tea leaves', amount: -1400, text: null, bold: false },
        { label: 'Paid back by Cash', amount: 1400, text: null, bold: true }],
      barcode: 'DT1-000042', footer: 'Saved offline: syncs when the connection returns',
    };
    const job2 = printer.nextJob();
    expect(await printSlip(refund, { openDrawer: true })).toEqual({ ok: true, via: 'network' });
    const bytes = await job2;
    const refundText = bytes.toString('latin1');
    expect(refundText).toMatch(/1 x Tea leaves +-\$14\.00\n/);
    expect(refundText).toContain('Saved offline: syncs when the connection returns\n');
    const at = { barcode: bytes.indexOf(Buffer.from(barcode)), cut: bytes.indexOf(Buffer.from([...GS_V, 66, 3])),
      kick: bytes.indexOf(Buffer.from([...ESC_P, 0, 25, 250])) };
    expect(at.barcode).toBeGreaterThan(refundText.indexOf('Paid back by Cash'));
    expect(at.cut).toBeGreaterThan(at.barcode);
    expect(at.kick).toBeGreaterThan(at.cut);
    expect(count(bytes, ESC_P)).toBe(1);
  });

  it('the slip call takes a structured slip only: bytes, a host, extra fields or a control character in the barcode are refused', async () => {
    const printer = await fakePrinter();
    const { printSlip } = register(printer.port);
    const slip: PrintableSlip = { title: 'X report', storeName: null, currency: 'USD', occurredAt: '2026-11-22T19:00:00.000Z',
      rows: [], barcode: null, footer: null };
    await expect(printSlip(Uint8Array.from([0x1b, 0x70, 0, 25, 250]))).rejects.toThrow(/invalid payload/);
    await expect(printSlip({ ...slip, host: '8.8.8.8' })).rejects.toThrow(/invalid payload/);
    await expect(printSlip({ ...slip, rows: [{ label: 'x', amount: 1, text: null, bold: false, raw: [27] }] })).rejects.toThrow(/invalid payload/);
    await expect(printSlip({ ...slip, barcode: 'DT1\x1b' })).rejects.toThrow(/invalid payload/);
    await expect(printSlip(slip, { openDrawer: true, port: 9100 })).rejects.toThrow(/invalid payload/);
    expect(printer.jobs).toEqual([]);
  });
});
