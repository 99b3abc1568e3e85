/**
 * A receipt's tax line: added on top when prices exclude tax, "included" when they include it, so a customer can
 * check subtotal - discount (+ tax) = total with a pocket calculator (issue 25). Shared by the screen and the
 * desktop's ESC/POS receipt.
 */
export function taxLabel(rate: number, taxInclusive: boolean | undefined): string {
  return taxInclusive ? `Tax ${rate}% (included)` : `Tax ${rate}%`;
}
