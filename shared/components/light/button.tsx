import type { ButtonHTMLAttributes } from 'react';

interface LightButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'solid' | 'outline' | 'ghost' | 'plain';
  size?: 'sm' | 'md';
  /** Shows a spinner over the label (keeping the button's size) and disables it. */
  loading?: boolean;
}

/** Chakra's Button look (recipe classes in light.css) as a plain button (docs/adr/0168). */
export function LightButton({ variant = 'solid', size = 'md', loading = false, className, disabled, children, ...props }: LightButtonProps) {
  const classes = ['lt-button', size === 'sm' && 'lt-size-sm', className].filter(Boolean).join(' ');
  return (
    <button
      type="button"
      {...props}
      className={classes}
      data-variant={variant}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
    >
      {loading && <span className="lt-spinner" aria-hidden="true" />}
      {loading ? <span className="lt-contents">{children}</span> : children}
    </button>
  );
}
