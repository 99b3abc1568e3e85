import type { SelfServicePlanName } from '../../lib/remembered-plan';

export interface PricingPlan {
  name: SelfServicePlanName | 'Enterprise';
  /** Dollars per month, billed annually; null for "Custom". */
  price: number | null;
  oldPrice: number | null;
  description: string;
  features: string[];
  popular: boolean;
}

const retailFeatures = ['Dashboard analytics', 'Point of sale (POS)', 'Products', 'Transactions', 'People', 'Customers', 'Suppliers', 'Profit', 'Settings', 'AI assistant live support'];

/**
 * The four plans of spec section 9, for display. What a plan costs when chosen is decided by the
 * database (choose_plan), not by these numbers.
 */
export const pricingPlans: PricingPlan[] = [
  {
    name: 'Starter',
    price: 9.99,
    oldPrice: 29,
    description: 'For a single shop getting organised.',
    features: ['1 store', '100 items (each size or colour)', ...retailFeatures],
    popular: false,
  },
  {
    name: 'Growth',
    price: 29.99,
    oldPrice: 79,
    description: 'For growing retailers with a few locations.',
    features: ['Up to 3 stores', '300 items (each size or colour)', ...retailFeatures],
    popular: true,
  },
  {
    name: 'Pro',
    price: 99.99,
    oldPrice: 199,
    description: 'For established chains with a team.',
    features: ['Up to 10 stores', 'Dashboard', 'Point of sale (POS)', 'Products', 'Transactions', 'Staff', 'Customers', 'Suppliers', 'Profit', 'Settings'],
    popular: false,
  },
  {
    name: 'Enterprise',
    price: null,
    oldPrice: null,
    description: 'For large retail groups with special needs.',
    features: ['Unlimited stores', 'Custom AI models', 'White-label branding', 'Priority support'],
    popular: false,
  },
];
