import { z } from 'zod';

/**
 * What public_site_state answers (docs/adr/0260): parsed at the edge by the dashboard.
 * The public pages' live script checks the same answers with site-state-guards.ts (no zod there).
 */
export const siteStateSchema = z.object({
  banner: z.object({ text: z.string(), severity: z.enum(['info', 'warning', 'critical']), ends_at: z.string().nullable() }).nullable(),
  read_only: z.object({ message: z.string() }).nullable(),
  announcement: z.object({ text: z.string(), link: z.string().nullable() }).nullable(),
  status: z.object({ level: z.enum(['ok', 'maintenance', 'incident']), text: z.string() }),
  support: z.object({ response_hours: z.number().int(), email: z.string() }),
  faq: z.array(z.object({ question: z.string(), answer: z.string() })),
  legal: z.record(z.string(), z.object({ version: z.number().int(), effective_at: z.string() })),
});
export type SiteState = z.infer<typeof siteStateSchema>;

export const legalVersionSchema = z.object({
  slug: z.string(),
  version: z.number(),
  body_md: z.string(),
  effective_at: z.string(),
  published_at: z.string(),
});
export type LegalVersion = z.infer<typeof legalVersionSchema>;
