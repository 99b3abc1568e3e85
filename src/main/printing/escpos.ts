/**
 * A small ESC/POS encoder: the dozen commands a receipt needs (Epson's command reference; Star, Bixolon and most
 * 80 mm printers understand the same set in ESC/POS mode). Text is encoded in Windows-1252 (code page 16, the
 * printer's WPC1252) and every control character in it becomes a space, so a product name can never smuggle a
 * printer command in: only the methods below emit command bytes (docs/adr/0132).
 */

const ESC = 0x1b;
const GS = 0x1d;
const LF = 0x0a;
const DLE = 0x10;
const EOT = 0x04;

export const commands = {
  init: [ESC, 0x40],
  /** ESC t 16: code page WPC1252. */
  codePage1252: [ESC, 0x74, 16],
  /** GS V 66 n: feed to the cutter (+ n dots) and cut (partial cut where the printer has one). */
  cut: [GS, 0x56, 66, 3],
  /** ESC p m t1 t2: pulse drawer pin 2 for 50 ms on, 500 ms off (t x 2 ms), the common drawer wiring. */
  drawerKick: [ESC, 0x70, 0, 25, 250],
  /** DLE EOT 4: real-time roll paper sensor status; the printer answers one byte at once. */
  paperStatus: [DLE, EOT, 4],
} as const;

/** The status byte's bits 5 and 6: roll paper end detected. */
export const PAPER_END_BITS = 0x60;

// Windows-1252's 0x80-0x9F block (the rest of 0xA0-0xFF equals Latin-1, below 0x80 it is ASCII).
const cp1252High: Record<string, number> = {
  '\u20ac': 0x80, '\u201a': 0x82, '\u0192': 0x83, '\u201e': 0x84, '\u2026': 0x85, '\u2020': 0x86, '\u2021': 0x87,
  '\u02c6': 0x88, '\u2030': 0x89, '\u0160': 0x8a, '\u2039': 0x8b, '\u0152': 0x8c, '\u017d': 0x8e, '\u2018': 0x91,
  '\u2019': 0x92, '\u201c': 0x93, '\u201d': 0x94, '\u2022': 0x95, '\u2013': 0x96, '\u2014': 0x97, '\u02dc': 0x98,
  '\u2122': 0x99, '\u0161': 0x9a, '\u203a': 0x9b, '\u0153': 0x9c, '\u017e': 0x9e, '\u0178': 0x9f,
};

function charByte(ch: string): number | null {
  const code = ch.codePointAt(0) ?? 0;
  if (code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0)) return 0x20; // controls, C0 and C1
  if (code < 0x80 || (code >= 0xa0 && code <= 0xff)) return code;
  return cp1252High[ch] ?? null;
}

/** One character as printer bytes: itself, its accent-free form ("ő" -> "o"), or "?". */
function encodeChar(ch: string): number[] {
  const direct = charByte(ch);
  if (direct !== null) return [direct];
  const base = ch.normalize('NFKD').replace(/\p{M}/gu, '');
  const bytes = [...base].map(charByte);
  return base.length > 0 && bytes.every((b) => b !== null) ? (bytes as number[]) : [0x3f];
}

/** Text as WPC1252 bytes with every control character replaced: safe to put between commands. */
export function encodeText(text: string): number[] {
  return [...text].flatMap(encodeChar);
}

/** Whether a string prints as itself (no "?" stand-ins): used to pick currency symbols or codes. */
export function isPrintable(text: string): boolean {
  return [...text].every((ch) => charByte(ch) !== null);
}

export type Align = 'left' | 'center' | 'right';

/** Builds one print job; every method appends and returns the builder. */
export class EscPosBuilder {
  private readonly bytes: number[] = [];

  raw(command: readonly number[]): this {
    this.bytes.push(...command);
    return this;
  }

  init(): this {
    return this.raw(commands.init).raw(commands.codePage1252);
  }

  align(align: Align): this {
    return this.raw([ESC, 0x61, align === 'left' ? 0 : align === 'center' ? 1 : 2]);
  }

  bold(on: boolean): this {
    return this.raw([ESC, 0x45, on ? 1 : 0]);
  }

  /** GS ! n: character width and height multipliers (1 or 2 here). */
  size(width: 1 | 2, height: 1 | 2): this {
    return this.raw([GS, 0x21, ((width - 1) << 4) | (height - 1)]);
  }

  line(text = ''): this {
    this.bytes.push(...encodeText(text), LF);
    return this;
  }

  feed(lines: number): this {
    return this.raw([ESC, 0x64, Math.max(0, Math.min(255, lines))]);
  }

  /**
   * CODE128 (code set B) with its text printed below: GS h, GS w, GS H, then GS k 73 n {B data.
   * Code set B covers printable ASCII; anything else is refused rather than printed as a wrong barcode.
   */
  barcode128(data: string): this {
    if (!/^[\x20-\x7e]{1,60}$/.test(data)) throw new Error('CODE128 data must be 1 to 60 printable ASCII characters');
    const payload = [0x7b, 0x42, ...[...data].map((ch) => ch.charCodeAt(0))];
    return this.raw([GS, 0x68, 80]) // height in dots
      .raw([GS, 0x77, 2]) // module width
      .raw([GS, 0x48, 2]) // human-readable text below
      .raw([GS, 0x66, 0]) // its font
      .raw([GS, 0x6b, 73, payload.length, ...payload]);
  }

  cut(): this {
    return this.raw(commands.cut);
  }

  drawerKick(): this {
    return this.raw(commands.drawerKick);
  }

  build(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}
