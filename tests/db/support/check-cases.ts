/**
 * One entry per CHECK constraint of the schema: values it must reject and boundary values it must accept.
 * The test compares this list with the catalog, so a new CHECK without cases fails the suite.
 */
type Value = string | number | boolean | null;

export interface CheckCase {
  table: string;
  column: string;
  constraint: string;
  bad: Value[];
  good: Value[];
  /** Other columns set in the same statement, for CHECKs that read several columns. */
  also?: Record<string, Value>;
  /**
   * The CHECK PostgreSQL names when a bad value breaks an earlier one too (a row's CHECKs run in name order):
   * an unknown barcode kind also fails barcodes_check_digit, which comes first.
   */
  reportedAs?: string;
}

const text = (length: number, char = 'x') => char.repeat(length);

export const checkCases: CheckCase[] = [
  // profiles: the sign-up rules of spec section 5
  { table: 'public.profiles', column: 'full_name', constraint: 'profiles_full_name_check',
    bad: ['A', '  A  ', text(101)], good: ['Al', text(100), '  Al  ', null] },
  { table: 'public.profiles', column: 'phone', constraint: 'profiles_phone_check',
    bad: ['555 01234', text(21, '1'), '   123456789   '], good: ['5550100100', text(20, '1'), null] },
  { table: 'public.profiles', column: 'business_name', constraint: 'profiles_business_name_check',
    bad: ['B', ' ', text(101)], good: ['Bo', text(100), null] },
  { table: 'public.profiles', column: 'business_type', constraint: 'profiles_business_type_check',
    bad: ['Bakery', 'grocery', ''], good: ['Grocery', 'Clothing', 'Medical', 'Electronics', 'Others', null] },
  { table: 'public.profiles', column: 'business_email', constraint: 'profiles_business_email_check',
    bad: ['not-an-email', 'a@b', 'a b@shop.example', 'a@@shop.example', `${text(247)}@shop.example`],
    good: ['a@b.co', `${text(242)}@shop.example`, null] },

  // user_plans
  { table: 'public.user_plans', column: 'plan_name', constraint: 'user_plans_plan_name_check',
    bad: ['Platinum', 'growth', ''], good: ['Free', 'Starter', 'Growth', 'Pro', 'Enterprise'] },
  { table: 'public.user_plans', column: 'price', constraint: 'user_plans_price_check',
    bad: [-0.01, -100], good: [0, 99.99] },
  { table: 'public.user_plans', column: 'billing_cycle', constraint: 'user_plans_billing_cycle_check',
    bad: ['weekly', 'Annual'], good: ['monthly', 'annual'] },
  { table: 'public.user_plans', column: 'status', constraint: 'user_plans_status_check',
    bad: ['paused', 'ACTIVE'], good: ['trialing', 'active', 'past_due', 'canceled', 'expired'] },

  // billing_history
  { table: 'public.billing_history', column: 'amount', constraint: 'billing_history_amount_check',
    bad: [-0.01], good: [0, 1234.56] },
  { table: 'public.billing_history', column: 'status', constraint: 'billing_history_status_check',
    bad: ['chargeback', 'Paid'], good: ['paid', 'pending', 'failed', 'refunded'] },
  { table: 'public.billing_history', column: 'description', constraint: 'billing_history_description_check',
    bad: [text(501)], good: ['', text(500)] },
  { table: 'public.billing_history', column: 'invoice_url', constraint: 'billing_history_invoice_url_check',
    bad: ['ftp://invoices.example.com/1.pdf', 'javascript:alert(1)', 'invoices.example.com/1.pdf'],
    good: ['https://invoices.example.com/1.pdf', 'http://127.0.0.1/1.pdf', null] },

  // payment_methods
  { table: 'public.payment_methods', column: 'type', constraint: 'payment_methods_type_check',
    bad: ['amex', 'Visa'], good: ['visa', 'mastercard', 'mobile', 'wallet', 'other'] },
  { table: 'public.payment_methods', column: 'last_four', constraint: 'payment_methods_last_four_check',
    bad: ['123', '12345', 'abcd', '12 4'], good: ['0000', '9999'] },
  { table: 'public.payment_methods', column: 'expiry', constraint: 'payment_methods_expiry_check',
    bad: ['13/25', '00/25', '1/25', '12/2025', '12-25'], good: ['01/30', '12/99', null] },

  // login_activity and active_sessions
  { table: 'public.login_activity', column: 'device', constraint: 'login_activity_device_check',
    bad: ['', text(201)], good: ['x', text(200)] },
  { table: 'public.login_activity', column: 'location', constraint: 'login_activity_location_check',
    bad: [text(201)], good: [text(200), null] },
  { table: 'public.active_sessions', column: 'device', constraint: 'active_sessions_device_check',
    bad: ['', text(201)], good: ['x', text(200)] },
  { table: 'public.active_sessions', column: 'location', constraint: 'active_sessions_location_check',
    bad: [text(201)], good: [text(200), null] },

  // support_tickets
  { table: 'public.support_tickets', column: 'subject', constraint: 'support_tickets_subject_check',
    bad: ['', '   ', text(201)], good: ['x', text(200)] },
  { table: 'public.support_tickets', column: 'message', constraint: 'support_tickets_message_check',
    bad: ['', '  ', text(5001)], good: ['x', text(5000)] },
  { table: 'public.support_tickets', column: 'status', constraint: 'support_tickets_status_check',
    bad: ['pending', 'Open'], good: ['open', 'in_progress', 'resolved', 'closed'] },
  { table: 'public.support_tickets', column: 'priority', constraint: 'support_tickets_priority_check',
    bad: ['critical', 'HIGH'], good: ['low', 'medium', 'high', 'urgent'] },

  // private.user_roles
  { table: 'private.user_roles', column: 'role', constraint: 'user_roles_role_check',
    bad: ['superuser', 'Admin'], good: ['admin'] },

  // The retail tables. Many are append-only (a trigger refuses UPDATE), so the runner writes these cases with
  // session_replication_role = replica, which skips triggers but not CHECKs.

  // catalog
  { table: 'public.products', column: 'name', constraint: 'products_name_check',
    bad: ['', '   ', text(201)], good: ['x', text(200)] },
  { table: 'public.products', column: 'brand', constraint: 'products_brand_check',
    bad: [text(101)], good: [text(100), null] },
  { table: 'public.products', column: 'description', constraint: 'products_description_check',
    bad: [text(2001)], good: [text(2000), null] },
  { table: 'public.products', column: 'unit', constraint: 'products_unit_check',
    bad: ['lb', 'KG', ''], good: ['each', 'kg'] },
  { table: 'public.products', column: 'option1_name', constraint: 'products_option1_name_check',
    also: { option2_name: null, option3_name: null }, bad: ['', '  ', text(41)], good: ['S', text(40), null] },
  { table: 'public.products', column: 'option2_name', constraint: 'products_option2_name_check',
    also: { option1_name: 'Size', option3_name: null }, bad: ['', '  ', text(41)], good: ['C', text(40), null] },
  { table: 'public.products', column: 'option3_name', constraint: 'products_option3_name_check',
    also: { option1_name: 'Size', option2_name: 'Colour' }, bad: ['', '  ', text(41)], good: ['M', text(40), null] },
  { table: 'public.products', column: 'option2_name', constraint: 'products_options_in_order',
    also: { option1_name: null, option3_name: null }, bad: ['Colour'], good: [null] },
  { table: 'public.products', column: 'requires_expiry', constraint: 'products_expiry_needs_lots',
    also: { has_lots: false }, bad: [true], good: [false] },
  { table: 'public.variants', column: 'sku', constraint: 'variants_sku_check',
    bad: ['', 'abc', '-A', 'A B', text(41, 'A')], good: ['Q', 'ZZ-TEST.1/2_X', text(40, 'Z')] },
  { table: 'public.variants', column: 'price', constraint: 'variants_price_check', bad: [-1], good: [0] },
  { table: 'public.variants', column: 'option1', constraint: 'variants_option1_check',
    bad: ['', '  ', text(61)], good: ['M', text(60)] },
  { table: 'public.variants', column: 'option2', constraint: 'variants_option2_check',
    bad: ['', '  ', text(61)], good: ['M', text(60)] },
  { table: 'public.variants', column: 'option3', constraint: 'variants_option3_check',
    bad: ['', '  ', text(61)], good: ['M', text(60)] },
  { table: 'public.variant_costs', column: 'cost', constraint: 'variant_costs_cost_check', bad: [-1], good: [0] },
  { table: 'public.store_prices', column: 'price', constraint: 'store_prices_price_check', bad: [-1], good: [0] },
  { table: 'public.barcodes', column: 'kind', constraint: 'barcodes_kind_check', also: { code: '4006381333931' },
    reportedAs: 'barcodes_check_digit', bad: ['qr', 'EAN13', ''], good: ['ean13'] },
  // check digits: EAN-13, UPC-A and EAN-8 each with a right and a wrong last digit, and wrong lengths
  { table: 'public.barcodes', column: 'code', constraint: 'barcodes_check_digit', also: { kind: 'ean13' },
    bad: ['4006381333932', '400638133393', '40063813339310', '400638133393X'], good: ['4006381333931'] },
  { table: 'public.barcodes', column: 'code', constraint: 'barcodes_check_digit', also: { kind: 'upca' },
    bad: ['036000291453', '4006381333931'], good: ['036000291452'] },
  { table: 'public.barcodes', column: 'code', constraint: 'barcodes_check_digit', also: { kind: 'ean8' },
    bad: ['96385073', '9638507'], good: ['96385074'] },
  { table: 'public.barcodes', column: 'code', constraint: 'barcodes_check_digit', also: { kind: 'internal' },
    bad: ['4006381333931', '2000000000001'], good: ['2000000000008'] },
  { table: 'public.lots', column: 'lot_number', constraint: 'lots_lot_number_check',
    bad: ['', '  ', text(61)], good: ['L', text(60)] },

  // stock ledger
  { table: 'public.stock_movements', column: 'kind', constraint: 'stock_movements_kind_check',
    also: { qty: 1, reason: 'correction' }, bad: ['sell', 'Sale', ''],
    good: ['receive', 'refund', 'transfer_in', 'opening', 'adjust', 'count'] },
  { table: 'public.stock_movements', column: 'kind', constraint: 'stock_movements_kind_check',
    also: { qty: -1, reason: 'damaged' }, bad: ['lose'], good: ['sale', 'transfer_out', 'damage'] },
  { table: 'public.stock_movements', column: 'qty', constraint: 'stock_movements_qty_check',
    also: { kind: 'count', reason: 'count' }, bad: [0], good: [5, -5] },
  { table: 'public.stock_movements', column: 'qty', constraint: 'stock_movements_sign',
    also: { kind: 'receive', reason: null }, bad: [-1], good: [1] },
  { table: 'public.stock_movements', column: 'qty', constraint: 'stock_movements_sign',
    also: { kind: 'sale', reason: null }, bad: [1], good: [-1] },
  { table: 'public.stock_movements', column: 'reason', constraint: 'stock_movements_adjust_reason',
    also: { kind: 'adjust', qty: -1 }, bad: [null], good: ['damaged'] },
  { table: 'public.stock_movements', column: 'reason', constraint: 'stock_movements_reason_check',
    also: { kind: 'count', qty: 1 }, bad: ['broken', 'Lost', ''],
    good: ['damaged', 'lost', 'theft', 'found', 'correction', 'count', 'expired', null] },
  { table: 'public.stock_movements', column: 'reference_type', constraint: 'stock_movements_reference_type_check',
    bad: ['invoice', 'Sale'], good: ['purchase_order', 'transfer', 'sale', 'refund', 'import'] },
  { table: 'public.stock_movements', column: 'unit_cost', constraint: 'stock_movements_unit_cost_check',
    bad: [-1], good: [0] },

  // suppliers, purchase orders, transfers, reorder points
  { table: 'public.suppliers', column: 'contact_name', constraint: 'suppliers_contact_name_check',
    bad: [text(101)], good: [text(100), null] },
  { table: 'public.purchase_orders', column: 'status', constraint: 'purchase_orders_status_check',
    bad: ['open', 'Draft'], good: ['draft', 'ordered', 'partly_received', 'received', 'closed'] },
  { table: 'public.purchase_order_lines', column: 'qty_ordered', constraint: 'purchase_order_lines_qty_ordered_check',
    bad: [0, -1], good: [0.001, 5] },
  { table: 'public.purchase_order_lines', column: 'qty_received',
    constraint: 'purchase_order_lines_qty_received_check', bad: [-1], good: [0] },
  { table: 'public.purchase_order_lines', column: 'unit_cost', constraint: 'purchase_order_lines_unit_cost_check',
    bad: [-1], good: [0] },
  { table: 'public.transfers', column: 'to_store_id', constraint: 'transfers_check',
    also: { from_store_id: '00000000-0000-4000-8000-0000000000a1' },
    bad: ['00000000-0000-4000-8000-0000000000a1'], good: ['00000000-0000-4000-8000-0000000000a2'] },
  { table: 'public.transfers', column: 'status', constraint: 'transfers_status_check',
    bad: ['draft', 'Sent'], good: ['sent', 'received'] },
  { table: 'public.transfer_lines', column: 'qty_sent', constraint: 'transfer_lines_qty_sent_check',
    bad: [0, -1], good: [1] },
  { table: 'public.transfer_lines', column: 'qty_received', constraint: 'transfer_lines_qty_received_check',
    bad: [-1], good: [0] },
  { table: 'public.transfer_lines', column: 'qty_damaged', constraint: 'transfer_lines_qty_damaged_check',
    bad: [-1], good: [0] },
  { table: 'public.transfer_lines', column: 'qty_missing', constraint: 'transfer_lines_qty_missing_check',
    bad: [-1], good: [0] },
  { table: 'public.reorder_points', column: 'target_level', constraint: 'reorder_points_check',
    also: { reorder_point: 5 }, bad: [4], good: [5, 10] },
  { table: 'public.reorder_points', column: 'reorder_point', constraint: 'reorder_points_reorder_point_check',
    also: { target_level: 100 }, bad: [-1], good: [0] },

  // point of sale
  { table: 'public.sale_lines', column: 'line_no', constraint: 'sale_lines_line_no_check',
    bad: [0, -1], good: [1000] },
  { table: 'public.sale_lines', column: 'qty', constraint: 'sale_lines_qty_check', bad: [0, -1], good: [0.001] },
  { table: 'public.sale_lines', column: 'unit_price', constraint: 'sale_lines_unit_price_check',
    bad: [-1], good: [0] },
  { table: 'public.sale_lines', column: 'discount', constraint: 'sale_lines_discount_check', bad: [-1], good: [0] },
  { table: 'public.sale_line_costs', column: 'unit_cost', constraint: 'sale_line_costs_unit_cost_check',
    bad: [-1], good: [0] },
  { table: 'public.sale_tenders', column: 'kind', constraint: 'sale_tenders_kind_check',
    bad: ['cheque', 'Cash'], good: ['cash', 'card', 'other'] },
  { table: 'public.sale_tenders', column: 'amount', constraint: 'sale_tenders_amount_check', bad: [-1], good: [0] },
  { table: 'public.sale_tenders', column: 'tendered', constraint: 'sale_tenders_tendered_check',
    bad: [-1], good: [0] },
  { table: 'public.sale_tenders', column: 'change', constraint: 'sale_tenders_change_check', bad: [-1], good: [0] },
  { table: 'public.refunds', column: 'tender_kind', constraint: 'refunds_tender_kind_check',
    bad: ['voucher'], good: ['cash', 'card', 'other'] },
  { table: 'public.refunds', column: 'total', constraint: 'refunds_total_check', bad: [-1], good: [0] },
  { table: 'public.refund_lines', column: 'qty', constraint: 'refund_lines_qty_check', bad: [0, -1], good: [1] },
  { table: 'public.refund_lines', column: 'amount', constraint: 'refund_lines_amount_check', bad: [-1], good: [0] },
  { table: 'public.refund_lines', column: 'disposition', constraint: 'refund_lines_disposition_check',
    bad: ['lost', 'Restock'], good: ['restock', 'damaged'] },
  { table: 'public.shifts', column: 'opening_float', constraint: 'shifts_opening_float_check',
    bad: [-1], good: [0] },
  { table: 'public.shifts', column: 'counted_total', constraint: 'shifts_closed_has_count',
    also: { closed_at: '2026-01-01T18:00:00Z' }, bad: [null], good: [0, 1000] },
  { table: 'public.cash_movements', column: 'kind', constraint: 'cash_movements_kind_check',
    bad: ['drop', 'IN'], good: ['in', 'out'] },
  { table: 'public.cash_movements', column: 'amount', constraint: 'cash_movements_amount_check',
    bad: [0, -1], good: [1] },
  { table: 'public.cash_movements', column: 'reason', constraint: 'cash_movements_reason_check',
    bad: ['', '  ', text(201)], good: ['x', text(200)] },
  { table: 'public.pos_approvals', column: 'purpose', constraint: 'pos_approvals_purpose_check',
    bad: ['void', 'Refund'], good: ['discount', 'refund'] },
  { table: 'public.pos_approvals', column: 'max_discount_percent',
    constraint: 'pos_approvals_max_discount_percent_check', bad: [-0.01, 100.01], good: [0, 100] },

  { table: 'public.sale_reviews', column: 'note', constraint: 'sale_reviews_note_check',
    bad: ['', '   ', text(501)], good: ['x', text(500)] },
  { table: 'public.refund_reviews', column: 'note', constraint: 'refund_reviews_note_check',
    bad: ['', '   ', text(501)], good: ['x', text(500)] },
  { table: 'public.stores', column: 'offline_refund_limit', constraint: 'stores_offline_refund_limit_range',
    bad: [-1, 100000001], good: [0, 100000000] },
  { table: 'public.shift_reviews', column: 'reason', constraint: 'shift_reviews_reason_check',
    bad: ['', '   ', 'ab', ' ab ', text(501)], good: ['abc', text(500)] },

  // support desk, notifications and email
  { table: 'public.support_tickets', column: 'waiting_on', constraint: 'support_tickets_waiting_on_check',
    bad: ['admin', 'Us'], good: ['us', 'customer'] },
  { table: 'public.ticket_replies', column: 'body', constraint: 'ticket_replies_body_check',
    bad: ['', '  ', text(5001)], good: ['x', text(5000)] },
  { table: 'public.notifications', column: 'kind', constraint: 'notifications_kind_check',
    bad: ['', text(61)], good: ['x', text(60)] },
  { table: 'public.notifications', column: 'title', constraint: 'notifications_title_check',
    bad: ['', text(201)], good: ['x', text(200)] },
  { table: 'public.notifications', column: 'body', constraint: 'notifications_body_check',
    bad: [text(501)], good: [text(500), null] },
  // links are paths inside the app, never another site or a script
  { table: 'public.notifications', column: 'link', constraint: 'notifications_link_check',
    bad: ['https://evil.example/', 'javascript:alert(1)', 'dashboard', '/a b', '/a?b=1', '/x.example'],
    good: ['/dashboard/support/1', '/', null] },
  { table: 'public.email_outbox', column: 'template', constraint: 'email_outbox_template_check',
    bad: ['welcome', 'Ticket_reply', ''], good: ['ticket_reply', 'ticket_resolved'] },
];
