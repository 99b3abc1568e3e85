/**
 * The end-to-end stack started by playwright.config.ts: an in-memory local stack with the seed data,
 * email confirmations on, serving the built web app. Ports derive from E2E_PORT_BASE so parallel runs
 * on one machine do not collide.
 */
const base = Number(process.env.E2E_PORT_BASE ?? 55400);

export const e2e = {
  apiPort: base + 21,
  webPort: base + 73,
  inboxPort: base + 24,
  paymentsPort: base + 30,
  apiUrl: `http://127.0.0.1:${base + 21}`,
  webUrl: `http://127.0.0.1:${base + 73}`,
  inboxUrl: `http://127.0.0.1:${base + 24}`,
  /** A fixed secret for the throwaway test stack only, so tests can mint the service-role key. */
  jwtSecret: 'storewise-e2e-only-secret-0123456789abcdefghijklmnopqrstuvwxyz',
};
