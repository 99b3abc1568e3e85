import { expect, type Locator, type Page } from '@playwright/test';

/** A titled card of a dashboard screen (cards are regions named by their title). */
export function section(page: Page, title: string): Locator {
  return page.getByRole('region', { name: title });
}

/** The dashboard's layout: sidebar (or drawer), header and the avatar menu. */
export class DashboardShell {
  readonly sidebar: Locator;
  readonly drawer: Locator;
  readonly toggle: Locator;
  readonly avatar: Locator;
  readonly heading: Locator;

  constructor(readonly page: Page) {
    this.sidebar = page.getByTestId('sidebar');
    this.drawer = page.getByTestId('sidebar-drawer');
    this.toggle = page.getByRole('button', { name: 'Toggle Sidebar' });
    this.avatar = page.getByRole('button', { name: /^Account menu for/ });
    this.heading = page.getByRole('heading', { level: 1 });
  }

  async open(path = '/dashboard'): Promise<void> {
    await this.page.goto(path);
    await expect(this.heading).toBeVisible();
  }

  nav(name: string): Locator {
    return this.page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name });
  }

  async openMenu(): Promise<Locator> {
    // A menu still closing from the last choice would pass for the new one, and a click on it is lost (a CI run at
    // load 6 left Sign Out unclicked this way).
    await expect(this.page.getByRole('menu')).toBeHidden();
    await this.avatar.click();
    const menu = this.page.getByRole('menu');
    await expect(menu).toBeVisible();
    return menu;
  }

  /**
   * Sign Out chosen from the keyboard (End, the last item, then Enter), as a keyboard user does: two clean-clone runs
   * at load 6 left the menu open after a pointer click on the item of a page scrolled under it.
   */
  async signOutFromMenu(): Promise<void> {
    const menu = await this.openMenu();
    await this.page.keyboard.press('End');
    await expect(menu.getByRole('menuitem', { name: 'Sign Out' })).toHaveAttribute('data-highlighted', '');
    await this.page.keyboard.press('Enter');
  }

  async pressShortcut(): Promise<void> {
    await this.page.keyboard.press('ControlOrMeta+b');
  }

  async sidebarCookie(): Promise<string | undefined> {
    const cookies = await this.page.context().cookies();
    return cookies.find((cookie) => cookie.name === 'sidebar_state')?.value;
  }

  toast(type: 'success' | 'error' | 'info' = 'success'): Locator {
    return this.page.getByTestId(`toast-${type}`);
  }
}
