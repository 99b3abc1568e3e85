import { z } from 'zod';
import { supabaseConfigSchema } from '../../ipc-contract';
import { proxyPolicySchema } from './proxy-config';

/**
 * What IT can set for every user of a store PC (docs/adr/0271), and the settings a user may set for
 * themselves where IT did not. The policy is strict: a misspelt key is a reported error, not a silently
 * ignored line that leaves IT believing a setting is enforced.
 */

/** The settings a user can change in the app, unless the machine policy sets or locks them. */
export const SETTING_KEYS = ['updateChannel', 'autoUpdate', 'proxy'] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

export const updateChannelSchema = z.enum(['stable', 'beta']);
export type UpdateChannel = z.infer<typeof updateChannelSchema>;

export const machinePolicySchema = z.strictObject({
  /** The Supabase project: hosted, or an on-premise one (wins over storewise.config.json). */
  server: supabaseConfigSchema.optional(),
  updateChannel: updateChannelSchema.optional(),
  autoUpdate: z.boolean().optional(),
  proxy: proxyPolicySchema.optional(),
  /** Settings users cannot change even where the policy gives no value (they keep the default). */
  locked: z.array(z.enum(SETTING_KEYS)).max(SETTING_KEYS.length * 2).default([]),
});
export type MachinePolicy = z.infer<typeof machinePolicySchema>;
export type MachinePolicyInput = z.input<typeof machinePolicySchema>;

/** The user's own choices (desktop-settings.json in userData); every field optional. */
export const userSettingsSchema = z.strictObject({
  updateChannel: updateChannelSchema.optional(),
  autoUpdate: z.boolean().optional(),
  proxy: proxyPolicySchema.optional(),
});
export type UserSettings = z.infer<typeof userSettingsSchema>;

export interface DesktopSettings {
  updateChannel: UpdateChannel;
  autoUpdate: boolean;
  proxy: z.infer<typeof proxyPolicySchema>;
}

/** One readable sentence per zod issue, with where it is ("proxy.servers.0.url: ..."), for IT and the logs. */
export function describeIssues(error: z.ZodError, max = 5): string {
  const lines = error.issues.slice(0, max).map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join('.') : 'the file';
    return `${where}: ${issue.message}`;
  });
  if (error.issues.length > max) lines.push(`and ${error.issues.length - max} more`);
  return lines.join('; ');
}
