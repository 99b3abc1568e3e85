/**
 * What happens to each column that points at a person when that person's data is erased (issue 26, docs/adr/0209):
 * - delete: the row goes with the person (sessions, memberships, notifications, payment methods...);
 * - anonymise: the row stays, the person's name and contact details go (profiles become "Former staff member",
 *   a shop's customer keeps an anonymous record so receipts stay whole);
 * - retain: the row and the id stay, the books need them (sales, refunds, shifts, stock movements, the trails),
 *   for the retention period of the business's country (fiscal records), never with a name attached beyond the id.
 * tests/db/data-classification.test.ts fails when a column found by supabase/privacy/personal-columns.sql is not
 * listed here, or a listed column no longer exists: a new table linked to a user, a profile or a customer must be
 * classified before it ships.
 */
export type Treatment = 'delete' | 'anonymise' | 'retain';

export const personalDataColumns: Record<string, { treatment: Treatment; why: string }> = {
  'private.account_security_events.actor_id': { treatment: 'retain', why: 'the security trail outlives the account' },
  'private.account_security_events.user_id': { treatment: 'retain', why: 'the security trail outlives the account' },
  'private.business_deletions.requested_by': { treatment: 'retain', why: 'who asked for a business\u2019s erasure is part of its proof log' },
  'private.business_exports.requested_by': { treatment: 'retain', why: 'who exported a business is part of its trail; the job goes with the business' },
  'private.business_trials.user_id': { treatment: 'retain', why: 'one free trial per business, also after deletion' },
  'private.catalog_import_keys.created_by': { treatment: 'delete', why: 'a catalog import in progress: keys of its parts, no use after it' },
  'private.email_sends.user_id': { treatment: 'delete', why: 'hourly email caps, no use after the account' },
  'private.legal_acknowledgements.user_id': { treatment: 'delete', why: 'which changed-terms notice a user dismissed: no use after the account' },
  'private.legal_versions.created_by': { treatment: 'retain', why: 'who wrote a published legal version is part of its record (admins only)' },
  'private.mfa_recovery_codes.user_id': { treatment: 'delete', why: 'sign-in secrets' },
  'private.plan_events.user_id': { treatment: 'retain', why: 'billing history' },
  'private.platform_setting_changes.actor_id': { treatment: 'retain', why: 'the platform settings trail outlives the admin account' },
  'private.staff_pins.user_id': { treatment: 'delete', why: 'a till PIN (hashed) ends with the membership' },
  'private.user_roles.user_id': { treatment: 'delete', why: 'platform roles end with the login' },
  'public.active_sessions.user_id': { treatment: 'delete', why: 'sessions end with the login' },
  'public.activity.actor_id': { treatment: 'retain', why: 'the activity trail keeps who did what' },
  'public.billing_history.user_id': { treatment: 'retain', why: 'invoices are fiscal records' },
  'public.business_members.user_id': { treatment: 'delete', why: 'memberships end with the login' },
  'public.businesses.owner_id': { treatment: 'retain', why: 'the business is deleted by its own flow, not with a login' },
  'public.cash_movements.actor_id': { treatment: 'retain', why: 'cash records of a shift' },
  'public.controlled_destructions.destroyed_by': { treatment: 'retain', why: 'who destroyed controlled stock is part of the controlled-drugs register' },
  'public.controlled_destructions.witness_id': { treatment: 'retain', why: 'the witness of a destruction is part of the controlled-drugs register' },
  'public.customers.id': { treatment: 'anonymise', why: 'name, email and phone go; receipts keep an anonymous customer' },
  'public.exchange_rates.created_by': { treatment: 'retain', why: 'who set an exchange rate is part of the money trail (sales name the rate)' },
  'public.invitations.accepted_by': { treatment: 'retain', why: 'who joined when, part of the team trail' },
  'public.invitations.invited_by': { treatment: 'retain', why: 'who invited whom, part of the team trail' },
  'public.login_activity.user_id': { treatment: 'delete', why: 'sign-in history is personal' },
  'public.member_store_access.user_id': { treatment: 'delete', why: 'store access ends with the membership' },
  'public.notifications.user_id': { treatment: 'delete', why: 'personal inbox' },
  'public.payment_methods.user_id': { treatment: 'delete', why: 'card details are never kept after the account' },
  'public.pos_approvals.approved_by': { treatment: 'retain', why: 'manager approvals of sales and refunds' },
  'public.profiles.id': { treatment: 'anonymise', why: 'the name becomes "Former staff member", contact details go' },
  'public.purchase_orders.created_by': { treatment: 'retain', why: 'purchase records' },
  'public.refund_reviews.reviewed_by': { treatment: 'retain', why: 'fiscal review of refunds' },
  'public.refunds.actor_id': { treatment: 'retain', why: 'fiscal record' },
  'public.sale_reviews.reviewed_by': { treatment: 'retain', why: 'fiscal review of sales' },
  'public.sales.cashier_id': { treatment: 'retain', why: 'fiscal record' },
  'public.sales.customer_id': { treatment: 'retain', why: 'points at the anonymised customer' },
  'public.shift_reviews.reviewed_by': { treatment: 'retain', why: 'fiscal review of shifts' },
  'public.shifts.cashier_id': { treatment: 'retain', why: 'fiscal record (Z reports)' },
  'public.shifts.closed_by': { treatment: 'retain', why: 'fiscal record (Z reports)' },
  'public.recalls.created_by': { treatment: 'retain', why: 'who recalled lots is part of the stock and safety trail' },
  'public.recall_lots.released_by': { treatment: 'retain', why: 'who released recalled lots back to sale is part of the stock and safety trail' },
  'public.serial_numbers.received_by': { treatment: 'retain', why: 'who received a unit, part of the stock trail' },
  'public.stock_movements.actor_id': { treatment: 'retain', why: 'the stock ledger is append-only' },
  'public.support_tickets.assigned_admin': { treatment: 'retain', why: 'the staff side of a ticket' },
  'public.support_tickets.user_id': { treatment: 'delete', why: 'a customer\u2019s tickets are personal' },
  'public.ticket_replies.author_id': { treatment: 'delete', why: 'replies go with their ticket' },
  'public.till_switches.signed_in_user_id': { treatment: 'retain', why: 'which signed-in session a till switch was made under, part of the sales record' },
  'public.till_switches.user_id': { treatment: 'retain', why: 'who was switched in at the till, named by their sales (fiscal record)' },
  'public.user_plans.user_id': { treatment: 'retain', why: 'billing history' },
};
