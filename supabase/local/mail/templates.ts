/* The auth emails live in supabase/functions/_shared/auth-email.ts, shared with the hosted send-email hook. */
export { confirmationEmail, recoveryEmail } from '../../functions/_shared/auth-email';
