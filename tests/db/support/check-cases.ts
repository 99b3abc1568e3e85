/**
 * One entry per CHECK constraint of the schema: values it must reject and boundary values it must accept.
 * The test compares this list with the catalog, so a new CHECK without cases fails the suite.
 */
export interface CheckCase {
  table: string;
  column: string;
  constraint: string;
  bad: (string | number | null)[];
  good: (string | number | null)[];
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
];
