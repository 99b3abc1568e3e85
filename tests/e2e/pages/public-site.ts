import { expect, type Page } from '@playwright/test';

/** The landing page: navigation, mobile menu and pricing. */
export class PublicLanding {
  constructor(readonly page: Page) {}

  async goto(hash = '') {
    await this.page.goto(`/${hash}`);
    await expect(this.page.getByRole('heading', { level: 1 })).toContainText('Storewise');
  }

  /** Opens and closes the mobile menu, a native popover (docs/adr/0167). */
  menuButton() {
    return this.page.getByRole('button', { name: 'Menu', exact: true });
  }

  /**
   * The menu button's expanded state as Chromium's accessibility tree gives it: a popover's button has no
   * aria-expanded attribute, the browser computes the state (Playwright's toBeExpanded reads the attribute).
   */
  async menuExpanded(): Promise<boolean> {
    const cdp = await this.page.context().newCDPSession(this.page);
    try {
      const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
      const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: 'button[popovertarget="mobile-menu"]' });
      const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
      const expanded = nodes[0]?.properties?.find((property) => property.name === 'expanded');
      return expanded?.value.value === true;
    } finally {
      await cdp.detach();
    }
  }

  mobileMenu() {
    return this.page.getByTestId('mobile-menu');
  }

  plan(name: 'Starter' | 'Growth' | 'Pro' | 'Enterprise') {
    return this.page.getByTestId(`plan-${name}`);
  }

  async getStarted(name: 'Starter' | 'Growth' | 'Pro') {
    await this.plan(name).getByRole('link', { name: /get started/i }).click();
  }
}

/** The toasts of spec 8: title and description inside one toast. */
export function toast(page: Page, kind: 'success' | 'error', title: string) {
  return page.getByTestId(`toast-${kind}`).filter({ hasText: title });
}

