import type { IconType } from 'react-icons';
import {
  LuCreditCard,
  LuFileText,
  LuLayoutDashboard,
  LuLifeBuoy,
  LuMonitor,
  LuPackage,
  LuScrollText,
  LuSettings,
  LuUsers,
  LuBuilding2,
} from 'react-icons/lu';

export interface AdminNavItem {
  label: string;
  /** Path under /admin ('' is the admin dashboard). */
  path: string;
  icon: IconType;
  /** Screens the spec does not describe yet render the Coming Soon placeholder. */
  comingSoon: boolean;
  /** One line for the placeholder: what the screen will be for. */
  summary: string;
}

/** The admin menu of the spec (section 2, "Admin area"), in its order. */
export const adminNav: readonly AdminNavItem[] = [
  { label: 'Dashboard', path: '', icon: LuLayoutDashboard, comingSoon: false, summary: 'Platform figures at a glance.' },
  { label: 'User Management', path: 'users', icon: LuUsers, comingSoon: false, summary: 'Every Storewise profile.' },
  {
    label: 'Account Management',
    path: 'accounts',
    icon: LuBuilding2,
    comingSoon: false,
    summary: 'Manage shop accounts, their stores and their staff.',
  },
  { label: 'Plan Management', path: 'plans', icon: LuPackage, comingSoon: false, summary: 'Every subscription plan.' },
  {
    label: 'Support Tickets',
    path: 'support',
    icon: LuLifeBuoy,
    comingSoon: false,
    summary: 'Answer and resolve the tickets shop owners file.',
  },
  {
    label: 'Billing Overview',
    path: 'billing',
    icon: LuCreditCard,
    comingSoon: false,
    summary: 'Recurring revenue, subscriptions by plan and status, and trials ending soon.',
  },
  {
    label: 'Activity Logs',
    path: 'logs',
    icon: LuScrollText,
    comingSoon: false,
    summary: 'Platform events: sign-ups, plan changes and suspensions.',
  },
  { label: 'Store PCs', path: 'store-pcs', icon: LuMonitor, comingSoon: false, summary: 'Desktop app versions across store PCs.' },
  {
    label: 'System Settings',
    path: 'settings',
    icon: LuSettings,
    comingSoon: false,
    summary: 'Platform-wide configuration for Storewise.',
  },
  {
    label: 'Content Management',
    path: 'content',
    icon: LuFileText,
    comingSoon: false,
    summary: 'Edit the marketing site, legal pages and announcements.',
  },
];

export const adminPath = (item: Pick<AdminNavItem, 'path'>): string => (item.path ? `/admin/${item.path}` : '/admin');
