import type { ReactNode } from 'react';

interface LightFieldProps {
  /** The control's id: the label points at it, the error text is `<id>-error`. */
  id: string;
  label: string;
  /** The validation message shown under the control; its presence marks the control invalid. */
  error?: string | undefined;
  required?: boolean;
  children: ReactNode;
}

/**
 * One labelled control of a light screen (docs/adr/0168), as shared/components/form-field.tsx draws it with
 * Chakra's Field. Ids are given, not generated: the same markup is prerendered and hydrated in a different tree.
 */
export function LightField({ id, label, error, required, children }: LightFieldProps) {
  return (
    <div className="lt-field" role="group">
      <label className="lt-label" htmlFor={id}>
        {label}
        {required && (
          <span aria-hidden="true" className="lt-required">
            *
          </span>
        )}
      </label>
      {children}
      {error && (
        <span className="lt-error" id={`${id}-error`} aria-live="polite">
          {error}
        </span>
      )}
    </div>
  );
}

/** What the control inside a LightField carries, so it is announced with its label, state and error. */
export function fieldControl(id: string, error: string | undefined, required = false) {
  return {
    id,
    required,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
  };
}
