import JsBarcode from 'jsbarcode';
import { useEffect, useRef } from 'react';

/** JsBarcode's format for a stored code: EAN-13/UPC-A/EAN-8 by length (internal codes are EAN-13 too). */
export function barcodeFormat(code: string): 'EAN13' | 'UPC' | 'EAN8' | 'CODE128' {
  if (/^\d{13}$/.test(code)) return 'EAN13';
  if (/^\d{12}$/.test(code)) return 'UPC';
  if (/^\d{8}$/.test(code)) return 'EAN8';
  return 'CODE128';
}

/** One barcode drawn as SVG by JsBarcode (crisp when printed). */
export function BarcodeSvg({ code }: { code: string }) {
  const ref = useRef<SVGSVGElement>(null);
  useEffect(() => {
    if (!ref.current) return;
    JsBarcode(ref.current, code, { format: barcodeFormat(code), height: 40, width: 1.4, fontSize: 12, margin: 0 });
  }, [code]);
  return <svg ref={ref} role="img" aria-label={`Barcode ${code}`} />;
}
