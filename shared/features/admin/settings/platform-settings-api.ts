// SQL (supabase/schemas, docs/adr/0185):
//   supabase/schemas/admin.sql: admin_platform_setting_changes() admin_platform_settings()
//     admin_send_test_email() admin_update_platform_settings()
import { z } from 'zod';
import type { StorewiseClient } from '../../../lib/supabase-client';
import { AdminApiError } from '../admin-api';
import {
  platformSettingsSchema,
  settingChangeSchema,
  type PlatformSettings,
  type SettingChange,
} from './platform-settings-schema';

/** The database's sentence for a refused value, said as a person would (the constraint names the setting). */
export function settingsErrorMessage(error: { message: string; code?: string }): string {
  const constraint = /platform_settings_(\w+?)_check/.exec(error.message)?.[1];
  if (error.code === '23514' && constraint) return `The value of ${constraint.replace(/_/g, ' ')} is not allowed.`;
  if (error.code === '42501') return 'Only administrators (with two-factor sign-in once set up) can change settings.';
  return error.message;
}

export async function fetchPlatformSettings(supabase: StorewiseClient): Promise<PlatformSettings> {
  const { data, error } = await supabase.rpc('admin_platform_settings');
  if (error) throw new AdminApiError(settingsErrorMessage(error), error.code);
  return platformSettingsSchema.parse(data);
}

export async function updatePlatformSettings(supabase: StorewiseClient, changes: Partial<PlatformSettings>): Promise<PlatformSettings> {
  const { data, error } = await supabase.rpc('admin_update_platform_settings', { _changes: changes });
  if (error) throw new AdminApiError(settingsErrorMessage(error), error.code);
  return platformSettingsSchema.parse(data);
}

export async function fetchSettingChanges(supabase: StorewiseClient): Promise<SettingChange[]> {
  const { data, error } = await supabase.rpc('admin_platform_setting_changes', { _limit: 50 });
  if (error) throw new AdminApiError(settingsErrorMessage(error), error.code);
  return settingChangeSchema.array().parse(data);
}

const testEmailSchema = z.object({ to: z.string(), sender_name: z.string(), reply_to: z.string() });
export type TestEmail = z.infer<typeof testEmailSchema>;

/**
 * Queues a test email to the signed-in admin's own address through the real outbox (docs/adr/0281); it goes
 * with the saved sender name and reply-to. At most 5 an hour: the refusal (429) says when to try again.
 */
export async function sendTestEmail(supabase: StorewiseClient): Promise<TestEmail> {
  const { data, error } = await supabase.rpc('admin_send_test_email');
  if (error) throw new AdminApiError(settingsErrorMessage(error), error.code);
  return testEmailSchema.parse(data);
}
