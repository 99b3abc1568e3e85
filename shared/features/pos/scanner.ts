/**
 * Keyboard-wedge scanner detection: a scanner "types" a barcode's digits a few milliseconds apart and ends with
 * Enter; a person types far slower. Keys arriving within maxGapMs of each other are buffered; Enter after at least
 * minLength fast digits is a scan. The listener is on the window, so a scan lands even when nothing has focus.
 */
export interface ScanDetectorOptions {
  maxGapMs?: number;
  minLength?: number;
}

export function createScanDetector(onScan: (code: string) => void, { maxGapMs = 50, minLength = 6 }: ScanDetectorOptions = {}) {
  let buffer = '';
  let last = 0;
  return {
    /** Feeds one key; returns true when the key completed a scan (the caller then prevents its default). */
    key(key: string, at: number): boolean {
      const fast = at - last <= maxGapMs;
      last = at;
      if (key === 'Enter') {
        const code = buffer;
        buffer = '';
        if (fast && code.length >= minLength) {
          onScan(code);
          return true;
        }
        return false;
      }
      // Letters, digits and '-' (a receipt's barcode is its number, e.g. DT1-000123: scanned for a refund); for GS1
      // DataMatrix codes also ']' (the ]d2 prefix), the GS separator (FNC1, 0x1D) and '.', '/', '_' of lot numbers.
      if (/^[0-9A-Za-z\-\]./_]$/.test(key) || key === '\u001d') {
        buffer = fast ? buffer + key : key;
        if (buffer.length > 128) buffer = buffer.slice(-128);
      } else {
        buffer = '';
      }
      return false;
    },
  };
}
