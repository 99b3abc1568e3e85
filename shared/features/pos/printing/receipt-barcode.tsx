import JsBarcode from 'jsbarcode';
import { useEffect, useRef } from 'react';

/** The receipt number as a CODE128 barcode (SVG: crisp on a thermal printer), scanned back for returns. */
export function ReceiptBarcode({ value }: { value: string }) {
  const ref = useRef<SVGSVGElement>(null);
  useEffect(() => {
    if (!ref.current) return;
    JsBarcode(ref.current, value, { format: 'CODE128', height: 40, width: 1.5, margin: 0, displayValue: false });
  }, [value]);
  return <svg ref={ref} role="img" aria-label={`Receipt number barcode ${value}`} data-testid="receipt-barcode" style={{ maxWidth: '100%' }} />;
}
