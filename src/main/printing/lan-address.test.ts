import { describe, expect, it } from 'vitest';
import { checkPrinterTarget, isAllowedPrinterSetting, isLanAddress } from './lan-address';

describe('isLanAddress', () => {
  it.each(['10.0.0.5', '172.16.0.1', '172.31.255.254', '192.168.1.50', '169.254.10.2', 'fd12:3456::1', 'fe80::1', '::ffff:192.168.1.9'])(
    'accepts %s', (address) => expect(isLanAddress(address)).toBe(true));
  it.each(['127.0.0.1', '8.8.8.8', '172.32.0.1', '172.15.0.1', '192.169.1.1', '100.64.0.1', '0.0.0.0', '::1', '2001:db8::1',
    '::ffff:8.8.8.8', 'printer.lan'])('refuses %s', (address) => expect(isLanAddress(address)).toBe(false));
});

describe('checkPrinterTarget', () => {
  const lookup = (table: Record<string, string[]>) => async (host: string) => {
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

  it('connects to the checked address of a LAN name, so the name cannot change between check and connect', async () => {
    expect(await checkPrinterTarget({ host: 'epson.lan', port: 9100 }, null, lookup({ 'epson.lan': ['192.168.1.40'] })))
      .toEqual({ ok: true, address: '192.168.1.40' });
  });

  it('refuses a name that resolves outside the LAN (even one address of several), an unknown name and other ports', async () => {
    const dns = lookup({ 'rebind.example': ['192.168.1.40', '93.184.216.34'], 'public.example': ['93.184.216.34'] });
    expect(await checkPrinterTarget({ host: 'rebind.example', port: 9100 }, null, dns)).toMatchObject({ ok: false });
    expect(await checkPrinterTarget({ host: 'public.example', port: 9100 }, null, dns)).toMatchObject({ ok: false });
    expect(await checkPrinterTarget({ host: 'missing.lan', port: 9100 }, null, dns)).toMatchObject({ ok: false, message: expect.stringMatching(/could not be found/) });
    expect(await checkPrinterTarget({ host: '192.168.1.40', port: 22 }, null, dns)).toMatchObject({ ok: false, message: expect.stringMatching(/9100-9109/) });
    expect(await checkPrinterTarget({ host: '127.0.0.1', port: 9100 }, null, dns)).toMatchObject({ ok: false });
  });

  it('trusts the printer IT configured, exactly as configured', async () => {
    const managed = { host: '127.0.0.1', port: 6001 };
    expect(await checkPrinterTarget(managed, managed, lookup({}))).toEqual({ ok: true, address: '127.0.0.1' });
    expect(await checkPrinterTarget({ host: '127.0.0.1', port: 6002 }, managed, lookup({}))).toMatchObject({ ok: false });
  });

  it('settings: LAN literals and names on raw ports; never loopback or public literals', () => {
    expect(isAllowedPrinterSetting({ host: '192.168.1.40', port: 9100 }, null)).toBeNull();
    expect(isAllowedPrinterSetting({ host: 'epson.lan', port: 9101 }, null)).toBeNull();
    expect(isAllowedPrinterSetting({ host: '8.8.8.8', port: 9100 }, null)).toMatch(/not a local network address/);
    expect(isAllowedPrinterSetting({ host: '127.0.0.1', port: 9100 }, null)).toMatch(/not a local network address/);
    expect(isAllowedPrinterSetting({ host: 'localhost', port: 9100 }, null)).not.toBeNull();
    expect(isAllowedPrinterSetting({ host: '192.168.1.40', port: 54321 }, null)).toMatch(/9100-9109/);
  });
});
