import { createContext, useContext, type ReactNode } from 'react';

/**
 * Screens other features lend the dashboard (the app passes them in: features never import each other): the
 * workspace switcher in the header and the business card on the Overview (issue 11).
 */
export interface DashboardSlots {
  header?: ReactNode;
  overview?: ReactNode;
  /** The business figures on the Overview (reports, issue 14). */
  businessOverview?: ReactNode;
}

export const DashboardSlotsContext = createContext<DashboardSlots>({});

export const useDashboardSlots = (): DashboardSlots => useContext(DashboardSlotsContext);
