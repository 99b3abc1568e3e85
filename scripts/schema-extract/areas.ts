/**
 * Which area file of supabase/schemas holds each object, and what each file says about its area first. Kept
 * apart from the extraction code so that a re-run after new migrations keeps the grouping and the headers:
 * a new table needs a line in `tables`; a new function lands by `functionRules` (first match), else in the
 * area named by its migration's file name (`migrationAreas`), else in shared with a warning.
 * The order of `areas` is the order the files apply in (config.toml's [db.migrations] schema_paths).
 */

export const areas = ['shared', 'auth', 'workspace', 'billing', 'catalog', 'inventory', 'pos', 'support', 'reports', 'admin'] as const;
export type Area = (typeof areas)[number];

/** The opening lines of each file: what the area owns and the invariants its SQL keeps. */
export const headers: Record<Area, string> = {
  shared: `Shared: the private schema, the extensions, the domains every area's columns use (names, emails, money
codes, tax rates), set_updated_at, and the email outbox the database queues mail in (support replies,
purchase orders, receipts), which the send-email Edge Function drains (docs/adr/0121).
Invariants: an outbox row is claimed by one sender at a time and is never lost: a failed send keeps its
last_error and is retried with backoff.`,
  auth: `Auth-related: what hangs off auth.users and auth.sessions: profiles, the platform admin role
(private.user_roles, is_admin), sign-in history and active sessions kept by triggers on auth.sessions.
Invariants: every user has exactly one profile (created by the auth.users trigger); users only read their
login_activity and active_sessions, which the auth.sessions triggers write; a user is an admin only through
private.user_roles.`,
  billing: `Billing: the customer's plan (user_plans), billing history and payment methods, the plan catalog and its
limits, trials and the plan events the admin panel lists.
Invariants: a user has at most one plan row; only the service role writes billing_history and payment_methods;
plan limits are enforced in the database (private.assert_plan_allows), not only in the screens.`,
  workspace: `Workspace (shared/features/workspace): businesses, stores, registers, members with roles and store access,
invitations, the activity trail and in-app notifications; the helpers every policy uses to ask which
businesses and stores the caller may see (private.my_business_ids and friends).
Invariants: a business has one owner (businesses.owner_id, who is also its owner member); the activity trail is
append-only; invitation tokens are kept hashed in private; store-limited members see only their listed stores.`,
  catalog: `Catalog (shared/features/catalog): categories, products, variants, barcodes, costs and store prices, the CSV
import, and the search the screens and the register use (search_catalog, private.catalog_words for typos).
Invariants: a barcode is unique within a business and its check digit is valid; the search words follow the
products and variants through triggers.`,
  inventory: `Inventory (shared/features/inventory): the stock ledger (stock_movements) and the balances it maintains, lots
and expiry, suppliers, purchase orders, transfers, counts and reorder points.
Invariants: on hand (stock_balances) is always the sum of the ledger, changed only by the inventory functions in
the ledger row's transaction; the ledger is append-only (a trigger refuses update and delete); costs are read by
owners and managers only.`,
  pos: `Register (shared/features/pos): shifts, cash movements, customers, manager approvals, sales with their lines,
costs and tenders, refunds, receipt numbers and the catalog copy the register keeps offline (pos_catalog).
Invariants: a sale is posted once (its client id is the key; a replay returns the first result); the tenders pay
the total; a refund line never exceeds what is left to refund; each sale moves stock through the ledger.`,
  support: `Support (shared/features/dashboard/support and admin/support): tickets, replies, the ticket search text and
the queue counts the desk reads.
Invariants: a customer sees only their own tickets; replies and status changes go only through customer_reply,
admin_reply and admin_set_ticket; the queue counts equal the tickets they count (kept by statement triggers).`,
  reports: `Reports (shared/features/reports): the summaries the reports read instead of the raw sales (daily and monthly
rollups, breakdowns, inventory value, shift totals, stock pairs), the report functions, and the flagged sales and
shifts to review.
Invariants: every summary equals what recomputing it from sales, refunds and the ledger gives (kept by triggers,
rebuilt by the refresh functions); reports only read what the caller's role may see.`,
  admin: `Admin (shared/features/admin): the platform figures (private.admin_totals, kept by triggers on profiles,
plans, billing and tickets), the user, plan, business and billing lists, and the activity log.
Invariants: every admin_* function refuses a caller who is not an admin; admin_totals equals the counts it
summarises (kept by triggers, recomputed by private.refresh_admin_totals).`,
};

/**
 * Tables, views and sequences by area (schema-qualified; public's too). Some do not exist yet: the branches adding
 * migrations 20261127110000 to 20261127140000 bring them (email_sends, business_trials, catalog_import_keys,
 * billing_*), listed so that the re-run after those merges places them without a note.
 */
export const tables: Record<Area, string[]> = {
  shared: ['public.email_outbox', 'private.email_sends'],
  auth: [
    'private.user_roles',
    'public.profiles',
    'public.login_activity',
    'public.active_sessions',
    'private.account_security_events',
    'private.mfa_recovery_codes',
  ],
  billing: ['public.user_plans', 'public.billing_history', 'public.payment_methods', 'private.plan_events',
    'private.business_trials', 'public.billing_customers', 'public.billing_subscriptions', 'public.billing_events'],
  workspace: ['public.businesses', 'public.business_members', 'public.stores', 'public.member_store_access',
    'public.registers', 'public.invitations', 'private.invitation_tokens', 'public.activity', 'public.notifications',
    'private.business_deletions', 'private.business_erasure_proofs', 'public.desktop_heartbeats',
    'private.business_exports'],
  catalog: ['public.categories', 'public.products', 'public.variants', 'public.variant_costs', 'public.barcodes',
    'private.internal_barcode_seq', 'public.store_prices', 'private.catalog_words', 'private.catalog_import_keys',
    'public.scale_barcode_rules', 'public.collections',
    'public.product_images'],
  inventory: ['public.lots', 'public.suppliers', 'public.purchase_orders', 'public.purchase_order_lines', 'public.transfers',
    'public.transfer_lines', 'public.reorder_points', 'public.stock_movements', 'public.stock_balances', 'public.serial_numbers',
    'public.recalls', 'public.recall_lots', 'public.controlled_destructions'],
  pos: ['public.shifts', 'public.cash_movements', 'public.customers', 'public.pos_approvals', 'public.sales',
    'public.sale_lines', 'public.sale_line_costs', 'public.sale_tenders', 'public.refunds', 'public.refund_lines',
    'private.register_counters', 'public.sale_line_serials', 'private.staff_pins', 'public.till_switches', 'public.sale_line_lots',
    'public.register_sync_states', 'public.refund_line_lots', 'public.sale_line_prescriptions', 'public.exchange_rates'],
  support: ['public.support_tickets', 'public.ticket_replies', 'private.support_ticket_search', 'private.support_queue_counts'],
  reports: ['public.sales_daily', 'public.sales_daily_tax', 'public.sales_daily_variant', 'public.sales_monthly_variant',
    'public.sales_monthly_variant_business', 'public.stock_movements_daily', 'public.inventory_value', 'public.shift_totals',
    'public.sales_daily_breakdown', 'public.sales_monthly_breakdown', 'public.stock_pairs', 'public.sale_reviews',
    'public.shift_reviews'],
  admin: ['private.admin_totals', 'private.platform_settings', 'private.platform_setting_changes', 'private.legal_versions',
    'private.legal_acknowledgements'],
};

/** Functions by name (without schema), first match wins. */
export const functionRules: [RegExp, Area][] = [
  [/^(set_updated_at|claim_email_outbox|finish_email_outbox|kick_email_outbox_sender|schedule_email_outbox_sender|email_caps|spend_email)$/, 'shared'],
  [/^(is_admin|assert_admin|handle_new_user|device_label|location_label|on_auth_session_\w+)$/, 'auth'],
  [/^(assert_aal2|assert_aal2_if_enrolled|has_verified_factor|admin_without_second_factor|mfa_\w+|account_deletion_check|erase_member_personal_data|export_my_personal_data|owns_live_business)$/, 'auth'],
  [/^admin_(reply|set_ticket|list_tickets|list_admins)$/, 'support'],
  [/^(retention_years|request_business_deletion|cancel_business_deletion|business_deletion_\w+|business_deletions_due|business_erasure_step|business_erasure_uploads|business_exports?_\w+|begin_business_export|purge_expired_retention|schedule_retention_purge|erase_customers?|export_customer|redact_person_fields|customer_import_\w+|preview_customer_import|import_customers)$/, 'workspace'],
  [/^(admin_\w+|refresh_admin_totals|bump_admin_totals|admin_totals_\w+)$/, 'admin'],
  [/^(choose_plan|plan_\w+|my_plan|my_plan_usage|my_trial_notice|record_plan_event|notify_plan_changed|assert_plan_allows|billing_\w+|my_billing|business_entitlement|record_business_trial|assert_items_allow|variants_plan_limit)$/, 'billing'],
  [/^(support_\w+|ticket_\w+|customer_reply|checked_reply_body|checked_ticket_status|apply_ticket_status|tell_ticket_owner|log_ticket|\w+_support_\w+)$/, 'support'],
  [/^(my_workspaces|business_team|set_member_role|remove_member|transfer_ownership\w*|\w*invitation\w*|activity_is_append_only|my_business_ids|my_full_access_business_ids|my_listed_store_ids|my_role|assert_role|assert_store_role|log_activity|audit_\w+|stores_guard|create_business_for|on_auth_user_created_business|write_store_access|set_managers_need_two_factor|pack_names|default_packs|businesses_default_packs|set_business_pack)$/, 'workspace'],
  [/^(gtin_check_digit|barcode_is_valid|products_guard|variants_guard|add_internal_barcode|search_catalog|import_catalog|preview_catalog_import|catalog_\w+|refresh_catalog_words|no_category|scale_\w+|currency_digits|markdown_collection|markdown_plan|set_main_product_image)$/, 'catalog'],
  [/^(stock_movements_append_only|lots_guard|purchase_orders_guard|assert_quantity|apply_movement|lot_for|update_average_cost|receive_stock|adjust_stock|post_count|send_transfer|receive_transfer|receive_purchase_order|store_stock|stock_history|expiring_lots|reorder_list|create_purchase_order|count_sheet|email_purchase_order|edit_purchase_order_draft|insert_purchase_order_draft|count_found_lot|create_reorder_purchase_order|demand_history|reorder_inputs|imei_is_valid|serial_problem|receive_serials|find_serial|fefo_pick|count_fefo|start_recall|recall_report|release_recall|lot_list|controlled_register|destroy_controlled_stock)$/, 'inventory'],
  [/^report_register_outbox$/, 'pos'],
  [/^(report_\w+|\w*sales_summar\w+|compute_\w+|breakdown_\w+|rebuild_\w+|variant_rollups_\w+|seller_totals|top_sellers|worst_sellers|stock_movements_daily_\w+|inventory_value_\w+|inventory_pairs|shift_totals_\w+|overview_\w+|sell_through_\w+|slow_movers_\w+|stock_pairs?_\w+|stock_moved_after|monthly_units_top|monthly_pairs_top|business_overview|flagged_sales|flagged_cash_movements|review_sale|flagged_shifts|review_shift|member_names|refresh_stock_summaries\w*)$/, 'reports'],
  [/^(discount_limit_percent|receipt_number|take_approval|sale_\w+|open_shift|current_shift|cash_in_out|shift_figures|x_report|z_report|close_shift|approve_discount|post_sales?|post_refund|post_sale_core|pos_\w+|receipt_email_params|request_receipt_email|insert_sale_rows|create_customer|shift_for_register|shift_conflict_other|quantity_problem|round_to_step|refund_cash_rounding|record_sale_serials|return_refund_serials|pin_problem|pin_lacks_two_factor|store_member_role|write_pin|check_pin|set_my_pin|set_staff_pin|switch_till|till_\w+|approve_with_pin|staff_pin_forget_on_promotion|insert_sale_line_lots|refund_line_take_lots|refund_line_json|prescription_problem|record_sale_prescriptions|foreign_cash_value|foreign_cash_change|foreign_counts_checked|set_exchange_rate)$/, 'pos'],
];

/** The area of a migration's objects when no rule above names them, by the first word of its file name. */
export const migrationAreas: Record<string, Area> = {
  core: 'auth', admin: 'admin', workspace: 'workspace', session: 'auth', catalog: 'catalog', inventory: 'inventory',
  support: 'support', pos: 'pos', billing: 'billing', reports: 'reports', report: 'reports', sales: 'reports',
  sale: 'reports', stock: 'reports', sell: 'reports', receipt: 'pos', email: 'shared', trail: 'workspace',
  work: 'workspace', till: 'pos',
};

/**
 * Top-level migration statements the schema keeps as written, in the area given (the newest match of each
 * pattern): the schema and extension the migrations create, and the idempotent call that enables pg_cron
 * and pg_net where the server offers them.
 */
export const keptStatements: { area: Area; pattern: RegExp }[] = [
  { area: 'shared', pattern: /^create schema if not exists private;$/i },
  { area: 'shared', pattern: /^create extension if not exists pg_trgm with schema extensions;$/i },
  { area: 'shared', pattern: /^do \$\$\s*begin\s*raise notice 'email outbox: %', private\.schedule_email_outbox_sender\(\);/i },
  { area: 'workspace', pattern: /^do \$\$\s*begin\s*raise notice 'retention purge: %', private\.schedule_retention_purge\(\);/i },
];
