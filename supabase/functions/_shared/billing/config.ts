/**
 * The billing functions' settings, from the function's environment only (hosted: `supabase secrets set`;
 * locally the stack passes them). Nothing here is ever logged.
 */
export interface BillingConfig {
  supabaseUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  siteUrl: string;
  stripe: { secretKey: string; webhookSecret: string; apiUrl?: string };
}

export function billingConfigFromEnv(get: (name: string) => string | undefined): BillingConfig {
  const need = (name: string) => {
    const value = get(name);
    if (!value) throw new Error(`missing function secret ${name}`);
    return value;
  };
  return {
    supabaseUrl: need('SUPABASE_URL'),
    anonKey: need('SUPABASE_ANON_KEY'),
    serviceRoleKey: need('SUPABASE_SERVICE_ROLE_KEY'),
    siteUrl: (get('SITE_URL') ?? 'http://127.0.0.1:5173').replace(/\/+$/, ''),
    stripe: { secretKey: need('STRIPE_SECRET_KEY'), webhookSecret: need('STRIPE_WEBHOOK_SECRET'), apiUrl: get('STRIPE_API_URL') || undefined },
  };
}
