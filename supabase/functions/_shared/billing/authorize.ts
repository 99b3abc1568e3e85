import { HttpRefusal, bearerOf } from './http.ts';
import type { BillingStore, OwnerContext } from './store.ts';

/** The signed-in owner's business (the named one, or their oldest): 401 without a valid session, 403 for others. */
export async function ownerOf(request: Request, store: BillingStore, businessId: string | null | undefined): Promise<OwnerContext> {
  const jwt = bearerOf(request);
  const userId = jwt ? await store.userIdOf(jwt) : null;
  if (!userId) throw new HttpRefusal(401, 'Sign in again to manage billing.');
  return store.ownerContext(userId, businessId ?? null);
}

export const LIVE = ['trialing', 'active', 'past_due'];
