import { useState } from 'react';
import { Stack, Switch, Text } from '@chakra-ui/react';
import { z } from 'zod';
import { notify } from '../../components/toaster';
import { businessPacksChanged } from '../../lib/business-packs-cache';
import { useSupabase } from '../../lib/platform-context';
import { WorkspaceCard } from './workspace-card';

/** The packs the database knows (private.pack_names), what each gives, in the order shown. */
export const PACKS = [
  { name: 'scale_barcodes', label: 'Scale labels and PLUs', description: 'Weighed and priced EAN-13 labels from your scale sell at the register, offline too.' },
  { name: 'lots_fefo', label: 'Lots and expiry', description: 'Lots picked earliest-expiring first; expired lots flagged.' },
  { name: 'serials', label: 'Serial numbers and IMEIs', description: 'Each unit sold once by its serial, on the receipt, with its warranty end.' },
  { name: 'size_grid', label: 'Size and colour grid', description: 'Variants by size and colour.' },
  { name: 'prescriptions', label: 'Prescriptions', description: 'Records that help a pharmacy comply; not a verification service.' },
] as const;

const packName = z.enum(PACKS.map((p) => p.name) as [string, ...string[]]);

/**
 * The owner's switches for the business's packs (ADR 0250): sign-up's business type chose the first ones; each change
 * goes through set_business_pack, which only the owner may call and the activity trail records.
 */
export function PacksCard({ businessId, initial }: { businessId: string; initial: string[] }) {
  const supabase = useSupabase();
  const [packs, setPacks] = useState<string[]>(initial);
  const [saving, setSaving] = useState<string | null>(null);

  const change = async (name: string, enabled: boolean) => {
    const pack = packName.parse(name);
    setSaving(pack);
    try {
      const { data, error } = await supabase.rpc('set_business_pack', { _business_id: businessId, _pack: pack, _enabled: enabled });
      if (error) throw new Error(error.message);
      setPacks(data ?? []);
      // The screens that offer a pack's tools read the packs once (use-business-packs): they follow this change.
      businessPacksChanged(supabase, businessId, data ?? []);
      notify.success('Saved', `${PACKS.find((p) => p.name === pack)?.label ?? pack} ${enabled ? 'on' : 'off'}.`);
    } catch (error) {
      notify.error('Not saved', error instanceof Error ? error.message : 'Please try again.');
    } finally {
      setSaving(null);
    }
  };

  return (
    <WorkspaceCard title="Packs for your kind of shop" description="Turn on what your shop needs; your business type chose the first ones.">
      <Stack gap="3">
        {PACKS.map((p) => (
          <Stack key={p.name} gap="0">
            <Switch.Root checked={packs.includes(p.name)} disabled={saving !== null} colorPalette="blue"
              onCheckedChange={(event) => void change(p.name, event.checked)}>
              <Switch.HiddenInput />
              <Switch.Control />
              <Switch.Label>{p.label}</Switch.Label>
            </Switch.Root>
            <Text fontSize="sm" color="fg.muted">{p.description}</Text>
          </Stack>
        ))}
      </Stack>
    </WorkspaceCard>
  );
}
