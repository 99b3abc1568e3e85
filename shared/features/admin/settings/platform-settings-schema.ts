import { z } from 'zod';

/**
 * The platform settings as the admin screens edit them (docs/adr/0260). The same bounds as the CHECK constraints
 * of private.platform_settings, so a bad value gets its message under the field before the database is asked;
 * the database refuses it anyway (23514) if a caller skips the screen.
 */
const email = z.string().trim().max(254).regex(/^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$/, 'Enter an email address like support@example.com');
const oneLine = (max: number) => z.string().max(max, `At most ${max} characters`).regex(/^[^\r\n]*$/, 'One line only');
const optionalDate = z.string().nullable();

export const faqEntrySchema = z.object({
  question: z.string().trim().min(1, 'Write the question').max(200, 'At most 200 characters'),
  answer: z.string().trim().min(1, 'Write the answer').max(2000, 'At most 2000 characters'),
});
export type FaqEntry = z.infer<typeof faqEntrySchema>;

export const platformSettingsSchema = z
  .object({
    signup_mode: z.enum(['open', 'invitation_only', 'closed']),
    trial_days: z.coerce.number({ error: 'Enter a number of days' }).int('Whole days').min(0, 'At least 0 days').max(90, 'At most 90 days'),
    payment_grace_days: z.coerce.number({ error: 'Enter a number of days' }).int('Whole days').min(0, 'At least 0 days').max(60, 'At most 60 days'),
    banner_text: oneLine(280),
    banner_severity: z.enum(['info', 'warning', 'critical']),
    banner_starts_at: optionalDate,
    banner_ends_at: optionalDate,
    read_only: z.boolean(),
    read_only_message: z.string().max(280, 'At most 280 characters'),
    support_response_hours: z.coerce.number({ error: 'Enter a number of hours' }).int('Whole hours').min(1, 'At least 1 hour').max(168, 'At most 168 hours (a week)'),
    support_email: email,
    email_sender_name: z.string().trim().min(1, 'Enter the name emails come from').max(80, 'At most 80 characters').regex(/^[^\r\n<>"]*$/, 'No line breaks, quotes or angle brackets'),
    email_reply_to: email,
    announcement_text: oneLine(200),
    announcement_link: z.string().trim().max(500).regex(/^$|^(\/\S*|https:\/\/\S+)$/, 'A path like /pricing or an https:// address'),
    status_line: oneLine(80).trim().min(1, 'Write the status line'),
    faq: z.array(faqEntrySchema).max(30, 'At most 30 entries'),
  })
  .refine((s) => !s.banner_starts_at || !s.banner_ends_at || Date.parse(s.banner_ends_at) > Date.parse(s.banner_starts_at), {
    path: ['banner_ends_at'],
    message: 'The banner must end after it starts',
  });
export type PlatformSettings = z.infer<typeof platformSettingsSchema>;


export const settingChangeSchema = z.object({
  id: z.number(),
  changed_at: z.string(),
  actor: z.string(),
  subject: z.string(),
  before: z.record(z.string(), z.unknown()),
  after: z.record(z.string(), z.unknown()),
});
export type SettingChange = z.infer<typeof settingChangeSchema>;

/** Only the settings that differ from what was loaded: one trail entry names exactly what the admin changed. */
export function changedSettings(before: PlatformSettings, after: PlatformSettings): Partial<PlatformSettings> {
  const changes: Record<string, unknown> = {};
  for (const key of Object.keys(after) as (keyof PlatformSettings)[]) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) changes[key] = after[key];
  }
  return changes as Partial<PlatformSettings>;
}
