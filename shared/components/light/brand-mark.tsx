/** The Storewise mark: an inline SVG so it renders offline on the desktop and costs no request. */
export function BrandMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="#2563eb" />
      <path d="M8 13.5 10 8h12l2 5.5v1.5a3 3 0 0 1-5.33 1.9 3 3 0 0 1-5.34 0A3 3 0 0 1 8 15z" fill="#fff" />
      <path d="M9.5 18.5V24h13v-5.5" fill="none" stroke="#fff" strokeWidth="2" strokeLinejoin="round" />
      <rect x="14" y="20" width="4" height="4" fill="#fff" />
    </svg>
  );
}
