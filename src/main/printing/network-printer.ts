import { createConnection, type Socket } from 'node:net';
import type { PrintErrorCode } from '../../../shared/platform/platform';
import { commands, PAPER_END_BITS } from './escpos';

/**
 * Sends one job to a network receipt printer (raw TCP, port 9100 by convention). The printer is asked for its
 * paper status first (DLE EOT 4, answered at once by ESC/POS printers); only a printer that answered and has
 * paper gets the job. So "did not answer" means nothing was printed and the cashier can simply try again.
 * Every failure resolves to a message for the cashier; nothing here throws (docs/adr/0132).
 */

export type RawPrintResult = { ok: true } | { ok: false; code: PrintErrorCode; message: string };

export interface RawPrintRequest {
  /** The checked address to connect to (lan-address.ts), and how to name the printer to the cashier. */
  address: string;
  port: number;
  label: string;
  data: Uint8Array;
  /** Covers connecting, the status answer and handing the job over. */
  timeoutMs?: number;
  connect?: (options: { host: string; port: number }) => Socket;
}

export function sendToNetworkPrinter(request: RawPrintRequest): Promise<RawPrintResult> {
  const { address, port, label, data, timeoutMs = 5000 } = request;
  const connect = request.connect ?? ((options) => createConnection(options));
  return new Promise((resolve) => {
    let settled = false;
    let phase: 'connecting' | 'status' | 'sending' = 'connecting';
    const socket = connect({ host: address, port });
    const finish = (result: RawPrintResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(result);
    };
    const fail = (code: PrintErrorCode, message: string) => {
      finish({ ok: false, code, message });
      socket.destroy();
    };
    const deadline = setTimeout(() => {
      fail('timeout', phase === 'connecting'
        ? `The receipt printer at ${label} did not answer. Check that it is on and connected, then print again.`
        : `The receipt printer at ${label} connected but did not respond. Nothing was printed; try again.`);
    }, timeoutMs);

    socket.on('connect', () => {
      phase = 'status';
      socket.write(Uint8Array.from(commands.paperStatus));
    });
    socket.on('data', (chunk: Buffer) => {
      if (phase !== 'status') return;
      const status = chunk[0] ?? 0;
      if ((status & PAPER_END_BITS) !== 0) {
        fail('out-of-paper', `The receipt printer at ${label} is out of paper. Load a new roll, then print again.`);
        return;
      }
      phase = 'sending';
      socket.end(data, () => {
        finish({ ok: true });
        // The printer closes its side when it has the job; do not hold the socket open if it does not.
        setTimeout(() => socket.destroy(), 2000).unref();
      });
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      switch (error.code) {
        case 'ECONNREFUSED':
          fail('refused', `The receipt printer at ${label} refused the connection. Check that it is on and that the address and port are right.`);
          break;
        case 'ETIMEDOUT':
          fail('timeout', `The receipt printer at ${label} did not answer. Check that it is on and connected, then print again.`);
          break;
        case 'EHOSTUNREACH':
        case 'ENETUNREACH':
        case 'EHOSTDOWN':
        case 'EADDRNOTAVAIL':
          fail('unreachable', `The receipt printer at ${label} cannot be reached from this computer. Check the network cable or Wi-Fi.`);
          break;
        default:
          fail('failed', `Printing to ${label} failed (${error.code ?? 'connection error'}). Try again.`);
      }
    });
    socket.on('close', () => {
      if (phase === 'status') fail('failed', `The receipt printer at ${label} closed the connection without answering. Try again.`);
    });
  });
}
