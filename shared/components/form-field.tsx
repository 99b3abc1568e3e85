import { Field } from '@chakra-ui/react';
import type { ReactNode } from 'react';

interface FormFieldProps {
  label: string;
  /** The validation message shown under the field; its presence marks the field invalid. */
  error?: string | undefined;
  required?: boolean;
  helperText?: ReactNode;
  children: ReactNode;
}

/**
 * One labelled form control. Chakra's Field wires the label, aria-invalid and aria-describedby to the
 * control inside, so every field is announced with its label and error.
 */
export function FormField({ label, error, required, helperText, children }: FormFieldProps) {
  return (
    <Field.Root invalid={Boolean(error)} required={required}>
      <Field.Label>
        {label}
        {required && <Field.RequiredIndicator />}
      </Field.Label>
      {children}
      {helperText && !error && <Field.HelperText>{helperText}</Field.HelperText>}
      {error && <Field.ErrorText>{error}</Field.ErrorText>}
    </Field.Root>
  );
}
