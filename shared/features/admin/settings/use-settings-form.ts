import { zodResolver } from '@hookform/resolvers/zod';
import { format } from 'date-fns';
import { useCallback, useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { notify } from '../../../components/toaster';
import { useSupabase } from '../../../lib/platform-context';
import { fetchPlatformSettings, updatePlatformSettings } from './platform-settings-api';
import { changedSettings, platformSettingsSchema, type PlatformSettings } from './platform-settings-schema';

/** The banner window travels as ISO instants; a datetime-local field holds the admin's local time. */
const toLocalInput = (iso: string | null) => (iso ? format(new Date(iso), "yyyy-MM-dd'T'HH:mm") : null);
const toInstant = (local: string | null) => (local ? new Date(local).toISOString() : null);

function forForm(settings: PlatformSettings): PlatformSettings {
  return { ...settings, banner_starts_at: toLocalInput(settings.banner_starts_at), banner_ends_at: toLocalInput(settings.banner_ends_at) };
}

function fromForm(values: PlatformSettings): PlatformSettings {
  const blank = (value: string | null) => (value ? value : null);
  return { ...values, banner_starts_at: toInstant(blank(values.banner_starts_at)), banner_ends_at: toInstant(blank(values.banner_ends_at)) };
}

/**
 * The platform settings loaded into a react-hook-form form validated by the shared zod schema; saving sends only
 * what changed (one trail entry of exactly those settings) and reloads the saved values, which apply at once.
 */
export function useSettingsForm(onSaved?: () => void) {
  const supabase = useSupabase();
  const [loaded, setLoaded] = useState<PlatformSettings | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const form = useForm<PlatformSettings>({ resolver: zodResolver(platformSettingsSchema) as never });
  const { reset } = form;

  const load = useCallback(() => {
    fetchPlatformSettings(supabase).then(
      (settings) => {
        setLoaded(settings);
        reset(forForm(settings));
      },
      (error: Error) => setLoadError(error.message),
    );
  }, [supabase, reset]);
  useEffect(load, [load]);

  const save = form.handleSubmit(async (values) => {
    if (!loaded) return;
    const changes = changedSettings(loaded, fromForm(values));
    if (Object.keys(changes).length === 0) return notify.info('Nothing to save', 'No setting was changed.');
    try {
      const saved = await updatePlatformSettings(supabase, changes);
      setLoaded(saved);
      reset(forForm(saved));
      notify.success('Settings saved', 'They apply now: no restart needed.');
      onSaved?.();
    } catch (error) {
      notify.error('Settings not saved', (error as Error).message);
    }
  });
  return { form, loaded, loadError, save };
}
