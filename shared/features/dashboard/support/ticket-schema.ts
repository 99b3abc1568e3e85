import { z } from 'zod';

/** A support ticket; the database checks the same bounds (support_tickets checks). */
export const ticketSchema = z.object({
  subject: z.string().trim().min(1, 'Subject is required').max(200, 'Subject is too long'),
  message: z.string().trim().min(1, 'Message is required').max(5000, 'Message is too long'),
});

export type TicketValues = z.infer<typeof ticketSchema>;

/** The spec's toast fires when either required field is empty (not for other problems). */
export function isMissingInformation(values: { subject?: string; message?: string }): boolean {
  return !values.subject?.trim() || !values.message?.trim();
}
