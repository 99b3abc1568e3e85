import { getDefaultStore } from 'jotai';
import { atomWithStorage, createJSONStorage } from 'jotai/utils';

/** The plans an owner can start on their own (Enterprise goes through sales). */
export const selfServicePlanNames = ['Starter', 'Growth', 'Pro'] as const;
export type SelfServicePlanName = (typeof selfServicePlanNames)[number];

// A type guard rather than zod: this module is on the landing page, whose JavaScript budget zod would eat.
export const isSelfServicePlan = (value: unknown): value is SelfServicePlanName =>
  typeof value === 'string' && (selfServicePlanNames as readonly string[]).includes(value);

/**
 * The plan a visitor picked before having an account. It must outlive the tab: the confirmation email is
 * usually opened in a new tab, and that is where the pricing section offers to start the trial, so it is
 * kept in localStorage (see docs/adr/0041). Anything stored that is not a known plan reads as no choice.
 */
const storage = createJSONStorage<SelfServicePlanName | null>(() => localStorage);
export const rememberedPlanAtom = atomWithStorage<SelfServicePlanName | null>(
  'storewise.remembered-plan',
  null,
  {
    ...storage,
    getItem: (key, initialValue) => {
      let stored: unknown = null;
      try {
        stored = storage.getItem(key, initialValue);
      } catch {
        // No storage (blocked in private mode, or outside a browser): nothing was remembered.
      }
      return isSelfServicePlan(stored) ? stored : null;
    },
  },
  { getOnInit: true },
);

/**
 * Sets (or clears) the remembered plan from an event handler. The landing page imports this module only when
 * a plan is picked, so jotai stays off its first paint (docs/adr/0044); the app has no jotai Provider, so the
 * default store is the one every `useAtomValue(rememberedPlanAtom)` reads.
 */
export function setRememberedPlan(plan: SelfServicePlanName | null): void {
  getDefaultStore().set(rememberedPlanAtom, plan);
}
