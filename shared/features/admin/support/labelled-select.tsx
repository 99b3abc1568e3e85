import { Field, NativeSelect } from '@chakra-ui/react';
import { useId } from 'react';

/** A labelled native select (filters and ticket fields): options as [value, label]. */
export function LabelledSelect({ label, value, options, onChange, disabled }: {
  label: string;
  value: string;
  options: readonly (readonly [string, string])[];
  onChange: (value: string) => void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <Field.Root maxW={{ md: '14rem' }}>
      <Field.Label htmlFor={id}>{label}</Field.Label>
      <NativeSelect.Root size="sm" disabled={disabled}>
        <NativeSelect.Field id={id} value={value} bg="bg" onChange={(event) => onChange(event.target.value)}>
          {options.map(([optionValue, optionLabel]) => <option key={optionValue} value={optionValue}>{optionLabel}</option>)}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}
