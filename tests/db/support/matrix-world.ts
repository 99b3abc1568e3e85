import type { Db } from '../../../supabase/local/db/types';
import { createTestClient, startStack } from '../../helpers/stack';
import type { Actor } from './actors';
import { httpActor, signedInActor } from './http-actors';
import { seedUsers } from './seed-ids';

/** Everything the policy matrix needs: the callers, the service role, and the database as its owner. */
export interface MatrixWorld {
  anon: Actor;
  /** Owner A (owner1: a plan, billing, payment methods, sessions, tickets). */
  ownerA: Actor;
  /** Owner B (owner2). */
  ownerB: Actor;
  /** Owner C (owner3: no plan yet), for choose_plan. */
  ownerC: Actor;
  admin: Actor;
  service: Actor;
  /** The truth, read as the database owner (never through the API under test). */
  db: Db;
  stop(): Promise<void>;
}

/** A seeded local stack with the demo accounts signed in through its auth server. */
export async function startMatrixWorld(): Promise<MatrixWorld> {
  const stack = await startStack();
  try {
    const signIn = (name: string, user: { email: string; password: string }) =>
      signedInActor(stack, name, user.email, user.password);
    return {
      anon: httpActor('anon', createTestClient(stack), null),
      ownerA: await signIn('owner A', seedUsers.owner1),
      ownerB: await signIn('owner B', seedUsers.owner2),
      ownerC: await signIn('owner C', seedUsers.owner3),
      admin: await signIn('admin', seedUsers.admin),
      service: httpActor('service role', createTestClient(stack, 'service'), null),
      db: stack.db,
      stop: () => stack.stop(),
    };
  } catch (error) {
    await stack.stop();
    throw error;
  }
}
