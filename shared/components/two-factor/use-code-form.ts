import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';

/**
 * A one-field code form (an authenticator code, a recovery code): zod checks the shape, onCode throws to show the
 * service's refusal under the field instead of in a toast the user may miss.
 */
export function useCodeForm(schema: z.ZodType<{ code: string }, { code: string }>, onCode: (code: string) => Promise<void>,
  { clearOnRefusal = false }: { clearOnRefusal?: boolean } = {}) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<{ code: string }, unknown, { code: string }>({ resolver: zodResolver(schema), defaultValues: { code: '' } });
  const submit = form.handleSubmit(async ({ code }) => {
    setRefusal(null);
    try {
      await onCode(code);
    } catch (error) {
      setRefusal(error instanceof Error ? error.message : String(error));
      if (clearOnRefusal) form.setValue('code', '');
    }
  });
  const { errors, isSubmitting } = form.formState;
  return { register: form.register, submit, error: errors.code?.message ?? refusal ?? undefined, isSubmitting };
}
