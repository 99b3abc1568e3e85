// SQL (supabase/schemas, docs/adr/0252): catalog.sql scale_barcode_rules
import { useState } from 'react';
import { Button, Heading, HStack, Input, Link, NativeSelect, SimpleGrid, Stack, Table, Text } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { Link as RouterLink } from 'react-router-dom';
import { z } from 'zod';
import { FormField } from '../../components/form-field';
import { LoadError } from '../../components/load-error';
import { LoadingText } from '../../components/loading-text';
import { notify } from '../../components/toaster';
import { useSupabase } from '../../lib/platform-context';
import { parseScaleLabel, parseScalePattern, type ScaleRuleKind } from '../../lib/scale-barcode';
import { unwrap, type CatalogWorkspace } from './catalog-api';
import { useReload } from './use-reload';

/** Common scale label layouts (Odoo's nomenclature presets and their usual neighbours). */
export const RULE_PRESETS: { label: string; name: string; pattern: string; kind: ScaleRuleKind }[] = [
  { label: 'Weight, prefix 21: 21.....{NNDDD}', name: 'Weighed items', pattern: '21.....{NNDDD}', kind: 'weight' },
  { label: 'Price, prefix 23: 23.....{NNNDD}', name: 'Priced items', pattern: '23.....{NNNDD}', kind: 'price' },
  { label: 'Weight, prefix 2, 6-digit code: 2......{NNDDD}', name: 'Weighed items (long code)', pattern: '2......{NNDDD}', kind: 'weight' },
  { label: 'Price, prefix 02: 02.....{NNNDD}', name: 'Priced items (02)', pattern: '02.....{NNNDD}', kind: 'price' },
];

const ruleSchema = z.object({
  name: z.string().trim().min(1, 'Enter a name').max(60, 'Use at most 60 characters'),
  pattern: z.string().trim().refine((p) => parseScalePattern(p) !== null,
    'Write prefix digits, one dot per item-code digit, then {N..D..}: 13 positions with the check digit, such as 21.....{NNDDD}'),
  kind: z.enum(['weight', 'price']),
  test: z.string(),
});
type RuleValues = z.infer<typeof ruleSchema>;

/** What the label typed in the test field says under the rule being written. */
export function describeTest(code: string, pattern: string, kind: ScaleRuleKind): string {
  const trimmed = code.trim();
  if (trimmed === '') return '';
  if (!parseScalePattern(pattern)) return 'Write a valid pattern first.';
  const label = parseScaleLabel(trimmed, { pattern, kind });
  if (!label) return 'Not read by this rule: it needs 13 digits with a right check digit and the rule\'s prefix.';
  const value = label.decimals > 0
    ? `${label.valueDigits.slice(0, -label.decimals).replace(/^0+(?=\d)/, '')}.${label.valueDigits.slice(-label.decimals)}`
    : label.valueDigits.replace(/^0+(?=\d)/, '');
  return `Item code ${label.itemCode}, ${kind === 'weight' ? `${value} kg` : `price ${value}`}; the item's barcode is ${label.baseCode}.`;
}

function RuleForm({ onSubmit }: { onSubmit: (v: RuleValues) => Promise<void> }) {
  const { register, handleSubmit, formState, control, reset, setValue } = useForm<RuleValues>({
    resolver: zodResolver(ruleSchema), defaultValues: { name: '', pattern: '', kind: 'weight', test: '' },
  });
  const [pattern, kind, test] = useWatch({ control, name: ['pattern', 'kind', 'test'] });
  const errors = formState.errors;
  return (
    <form aria-label="New scale rule" noValidate onSubmit={handleSubmit(async (v) => {
      await onSubmit(v);
      reset();
    })}>
      <Stack gap="3" borderWidth="1px" rounded="md" p="3">
        <NativeSelect.Root size="sm" maxW="md">
          <NativeSelect.Field aria-label="Start from a preset" value="" onChange={(e) => {
            const preset = RULE_PRESETS.find((p) => p.pattern === e.target.value);
            if (!preset) return;
            setValue('name', preset.name);
            setValue('pattern', preset.pattern, { shouldValidate: formState.isSubmitted });
            setValue('kind', preset.kind);
          }}>
            <option value="">Start from a preset…</option>
            {RULE_PRESETS.map((p) => <option key={p.pattern} value={p.pattern}>{p.label}</option>)}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <SimpleGrid columns={{ base: 1, md: 3 }} gap="3">
          <FormField label="Name" required error={errors.name?.message}><Input {...register('name')} /></FormField>
          <FormField label="Pattern" required error={errors.pattern?.message}><Input fontFamily="mono" {...register('pattern')} /></FormField>
          <FormField label="The value is">
            <NativeSelect.Root>
              <NativeSelect.Field {...register('kind')}>
                <option value="weight">the weight (kg)</option>
                <option value="price">the price</option>
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </FormField>
        </SimpleGrid>
        <FormField label="Test a label" helperText="Scan or type a label printed by the scale to see what this rule reads.">
          <Input inputMode="numeric" maxW="md" {...register('test')} />
        </FormField>
        {test.trim() !== '' && <Text fontSize="sm" role="status" data-testid="scale-rule-test">{describeTest(test, pattern, kind)}</Text>}
        <div><Button type="submit" size="sm" loading={formState.isSubmitting}>Add rule</Button></div>
      </Stack>
    </form>
  );
}

/**
 * The business's scale label rules (grocery pack, ADR 0252): the list, a new rule from a preset, and a test field
 * that reads a label with the rule being written, as the register will.
 */
export function ScaleRulesPage({ business }: { business: CatalogWorkspace }) {
  const supabase = useSupabase();
  const canEdit = business.role === 'owner' || business.role === 'manager';
  const [state, reload] = useReload(`scale:${business.id}`, async () =>
    unwrap(await supabase.from('scale_barcode_rules').select('id, name, pattern, kind').eq('business_id', business.id).order('name')) ?? []);
  const [busy, setBusy] = useState(false);
  const run = async (what: string, action: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await action();
      notify.success(done);
      reload();
    } catch (error) {
      notify.error(`${what} failed`, error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="4">
      <Link asChild color="blue.fg"><RouterLink to="/dashboard/catalog">← Products</RouterLink></Link>
      <Heading as="h2" size="lg">Scale label rules</Heading>
      <Text color="fg.muted">How your scales print the weight or the price in an EAN-13 label. An item is found by its barcode with the value zeroed.</Text>
      {canEdit && <RuleForm onSubmit={(v) => run('Adding the rule', async () => {
        unwrap(await supabase.from('scale_barcode_rules').insert({ business_id: business.id, name: v.name, pattern: v.pattern, kind: v.kind }));
      }, 'Rule added')} />}
      {state.status === 'loading' ? <LoadingText /> : state.status === 'error' ? (
        <LoadError message="The rules could not be loaded." error={state.error} onRetry={reload} />
      ) : state.data.length === 0 ? <Text>No rules yet.</Text> : (
        <Table.ScrollArea borderWidth="1px" rounded="md">
          <Table.Root size="sm" aria-label="Scale rules">
            <Table.Body>
              {state.data.map((r) => (
                <Table.Row key={r.id}>
                  <Table.Cell>{r.name}</Table.Cell>
                  <Table.Cell fontFamily="mono">{r.pattern}</Table.Cell>
                  <Table.Cell>{r.kind === 'weight' ? 'weight' : 'price'}</Table.Cell>
                  <Table.Cell textAlign="end">
                    {canEdit && (
                      <HStack justify="flex-end">
                        <Button size="xs" variant="ghost" colorPalette="red" disabled={busy} onClick={() => void run('Deleting', async () => {
                          unwrap(await supabase.from('scale_barcode_rules').delete().eq('id', r.id));
                        }, 'Rule deleted')}>Delete</Button>
                      </HStack>
                    )}
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
      )}
    </Stack>
  );
}
