import { isIP } from 'node:net';

/**
 * Where the register may send raw bytes. A receipt printer sits on the shop's LAN, so a printer address typed at
 * the register must be a private-network address (RFC 1918, link-local, IPv6 unique-local or link-local) on a
 * raw-printing port (9100-9109). A host name is resolved first and every address it resolves to must be private;
 * main then connects to the address it checked, so a name cannot be re-pointed between the check and the
 * connection (DNS rebinding). The printer IT configured in storewise.config.json is trusted as it is
 * (it may be a local print bridge on 127.0.0.1). See docs/adr/0132.
 */

export const RAW_PORTS = { min: 9100, max: 9109 } as const;

function ipv4Parts(address: string): number[] | null {
  if (isIP(address) !== 4) return null;
  return address.split('.').map(Number);
}

export function isLanAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const v4 = ipv4Parts(mapped ? (mapped[1] ?? '') : address);
  if (v4) {
    const [a = -1, b = -1] = v4;
    return a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
  }
  if (isIP(address) !== 6) return false;
  const first = parseInt(address.split(':')[0] || '0', 16);
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80;
}

export interface PrinterTarget {
  host: string;
  port: number;
}

export type LookupAll = (host: string) => Promise<{ address: string; family: number }[]>;

export type HostCheck = { ok: true; address: string } | { ok: false; message: string };

const sameTarget = (a: PrinterTarget, b: PrinterTarget | null) => b !== null && a.host === b.host && a.port === b.port;

/** The address to connect to for `target`, or why the register may not send to it. */
export async function checkPrinterTarget(target: PrinterTarget, managed: PrinterTarget | null, lookup: LookupAll): Promise<HostCheck> {
  const trusted = sameTarget(target, managed);
  if (!trusted && (target.port < RAW_PORTS.min || target.port > RAW_PORTS.max)) {
    return { ok: false, message: `Receipt printers listen on ports ${RAW_PORTS.min}-${RAW_PORTS.max}; ${target.port} is not one.` };
  }
  let addresses: string[];
  if (isIP(target.host)) addresses = [target.host];
  else {
    try {
      addresses = (await lookup(target.host)).map((entry) => entry.address);
    } catch {
      return { ok: false, message: `The printer name ${target.host} could not be found on the network.` };
    }
  }
  const [first] = addresses;
  if (!first) return { ok: false, message: `The printer name ${target.host} could not be found on the network.` };
  if (!trusted && !addresses.every(isLanAddress)) {
    return { ok: false, message: `${target.host} is not on the shop's local network; only local printers can be used.` };
  }
  return { ok: true, address: first };
}

/** For saving settings: the same rule without the lookup (names are checked when printing). */
export function isAllowedPrinterSetting(target: PrinterTarget, managed: PrinterTarget | null): string | null {
  if (sameTarget(target, managed)) return null;
  if (target.port < RAW_PORTS.min || target.port > RAW_PORTS.max) {
    return `Receipt printers listen on ports ${RAW_PORTS.min}-${RAW_PORTS.max}; ${target.port} is not one.`;
  }
  if (isIP(target.host) && !isLanAddress(target.host)) return `${target.host} is not a local network address.`;
  if (/^localhost$/i.test(target.host) || /\.localhost$/i.test(target.host)) return 'Enter the printer\'s network address.';
  return null;
}
