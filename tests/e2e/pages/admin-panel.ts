import { expect, type Locator, type Page } from '@playwright/test';

/** The admin menu of the spec, in order (label -> path). */
export const ADMIN_MENU = [
  ['Dashboard', '/admin'],
  ['User Management', '/admin/users'],
  ['Account Management', '/admin/accounts'],
  ['Plan Management', '/admin/plans'],
  ['Support Tickets', '/admin/support'],
  ['Billing Overview', '/admin/billing'],
  ['Activity Logs', '/admin/logs'],
  ['Store PCs', '/admin/store-pcs'],
  ['System Settings', '/admin/settings'],
  ['Content Management', '/admin/content'],
] as const;

export const COMING_SOON = ADMIN_MENU.filter(([, path]) => !['/admin', '/admin/users', '/admin/accounts', '/admin/plans', '/admin/support', '/admin/billing', '/admin/logs', '/admin/store-pcs', '/admin/settings', '/admin/content'].includes(path));

/** The admin shell: menu (sidebar or drawer), headings and the three working screens. */
export class AdminPanel {
  readonly heading: Locator;
  readonly search: Locator;
  readonly userNames: Locator;
  readonly userRows: Locator;
  readonly planOwners: Locator;
  readonly pageSummary: Locator;
  readonly pageNumber: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1 });
    this.search = page.getByRole('searchbox', { name: 'Search users by name' });
    this.userNames = page.getByTestId('user-name');
    this.userRows = page.getByTestId('user-row');
    this.planOwners = page.getByTestId('plan-owner');
    this.pageSummary = page.getByTestId('page-summary');
    this.pageNumber = page.getByTestId('page-number');
  }

  async open(path = '/admin'): Promise<void> {
    await this.page.goto(path);
    await expect(this.heading).toBeVisible();
  }

  menu(): Locator {
    return this.page.getByRole('navigation', { name: 'Admin menu' });
  }

  menuLink(name: string): Locator {
    return this.menu().getByRole('link', { name, exact: true });
  }

  /** The value shown on an overview card: total-users, active-users, total-revenue, open-tickets. */
  stat(name: 'total-users' | 'active-users' | 'total-revenue' | 'open-tickets'): Locator {
    return this.page.getByTestId(`stat-${name}-value`);
  }

  pagerButton(name: 'First page' | 'Previous page' | 'Next page' | 'Last page'): Locator {
    return this.page.getByRole('navigation', { name: /^Pages of/ }).getByRole('button', { name });
  }

  async searchFor(text: string): Promise<void> {
    await this.search.fill(text);
  }
}
