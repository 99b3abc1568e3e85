/**
 * The billing tables, written through the service role's RPCs (supabase/migrations/20261127140000_billing.sql).
 * Every call checks its { error }: a failed write throws, and the caller answers so the provider retries.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { BillingInvoice, BillingPaymentMethod, BillingSubscription, PlanName } from './provider.ts';

export interface OwnerContext {
  business_id: string;
  business_name: string;
  email: string | null;
  customer_id: string | null;
  trial_available: boolean;
  /** The platform's trial length (System Settings, docs/adr/0260); 7 before the setting existed. */
  trial_days?: number;
  subscription: { id: string; plan: PlanName; status: string; cancel_at_period_end: boolean; current_period_end: string | null } | null;
  payment_methods: number;
}

export class NotOwner extends Error {}
export class NotFound extends Error {}

export interface BillingStore {
  userIdOf(jwt: string): Promise<string | null>;
  ownerContext(userId: string, businessId: string | null): Promise<OwnerContext>;
  saveCustomer(businessId: string, customerId: string): Promise<string>;
  claimCheckout(businessId: string, plan: PlanName): Promise<string>;
  recordEvent(event: { id: string; type: string; object_id: string | null; created: string }): Promise<boolean>;
  finishEvent(id: string, error: string | null): Promise<void>;
  applySubscription(sub: BillingSubscription, syncedAt: string): Promise<boolean>;
  setClock(customer: string, clock: string | null, now: string | null): Promise<void>;
  setCarry(subscription: string, plan: PlanName, until: string | null): Promise<void>;
  applyInvoice(invoice: BillingInvoice, syncedAt: string): Promise<void>;
  applyPaymentMethods(customer: string, methods: BillingPaymentMethod[]): Promise<void>;
  /** An admin's view of one invoice (42501 for anyone else, PT404 when unknown). */
  adminInvoice(adminId: string, invoiceId: string): Promise<{ id: string; business_id: string | null; status: string; amount: number }>;
  auditRefund(adminId: string, invoiceId: string, amountCents: number, reason: string): Promise<void>;
  noteSignatureFailure(): Promise<void>;
}

export function createBillingStore(url: string, anonKey: string, serviceRoleKey: string): BillingStore {
  const options = { auth: { persistSession: false, autoRefreshToken: false } };
  const service: SupabaseClient = createClient(url, serviceRoleKey, options);
  const anon: SupabaseClient = createClient(url, anonKey, options);
  const rpc = async <T>(name: string, args: Record<string, unknown>): Promise<T> => {
    const { data, error } = await service.rpc(name, args);
    if (error) {
      if (error.code === '42501') throw new NotOwner(error.message);
      if (error.code === 'PT404') throw new NotFound(error.message);
      throw new Error(`${name}: ${error.code ?? ''} ${error.message}`);
    }
    return data as T;
  };
  return {
    async userIdOf(jwt) {
      // The auth server checks the token (signature, expiry, session not signed out), as hosted functions do.
      const { data, error } = await anon.auth.getUser(jwt);
      return error ? null : (data.user?.id ?? null);
    },
    ownerContext: (userId, businessId) => rpc<OwnerContext>('billing_owner_context', { _user_id: userId, _business_id: businessId }),
    saveCustomer: (businessId, customerId) => rpc<string>('billing_save_customer', { _business_id: businessId, _customer_id: customerId }),
    claimCheckout: (businessId, plan) => rpc<string>('billing_claim_checkout', { _business_id: businessId, _plan: plan }),
    recordEvent: (event) => rpc<boolean>('billing_record_event', { _id: event.id, _type: event.type, _object_id: event.object_id, _created: event.created }),
    finishEvent: async (id, error) => { await rpc('billing_finish_event', { _id: id, _error: error }); },
    applySubscription: (sub, syncedAt) => rpc<boolean>('billing_apply_subscription', { _sub: sub, _synced_at: syncedAt }),
    setClock: async (customer, clock, now) => { await rpc('billing_set_clock', { _customer_id: customer, _test_clock: clock, _clock_now: now }); },
    setCarry: async (subscription, plan, until) => { await rpc('billing_set_carry', { _subscription_id: subscription, _plan: plan, _until: until }); },
    applyInvoice: async (invoice, syncedAt) => { await rpc('billing_apply_invoice', { _inv: invoice, _synced_at: syncedAt }); },
    applyPaymentMethods: async (customer, methods) => { await rpc('billing_apply_payment_methods', { _customer_id: customer, _methods: methods }); },
    adminInvoice: (adminId, invoiceId) => rpc('billing_admin_invoice', { _admin_id: adminId, _invoice_id: invoiceId }),
    noteSignatureFailure: async () => { await rpc('billing_note_signature_failure', {}); },
    auditRefund: async (adminId, invoiceId, amountCents, reason) => {
      await rpc('billing_audit_refund', { _admin_id: adminId, _invoice_id: invoiceId, _amount_cents: amountCents, _reason: reason });
    },
  };
}
