import { defineConfig, devices, chromium } from '@playwright/test';
import { CHROMIUM_ARGS, testChromiumExecutable } from './tests/helpers/browser';
import { e2e } from './tests/helpers/e2e-env';

const executablePath = testChromiumExecutable(() => chromium.executablePath());

export default defineConfig({
  testDir: './tests/e2e',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  outputDir: 'test-results',
  use: {
    baseURL: e2e.webUrl,
    // Recording a trace costs every test CPU; CI keeps only its text output, so it records none.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath, args: CHROMIUM_ARGS },
  },
  projects: [
    { name: 'chromium', testIgnore: /read-only\.spec\.ts/, use: { ...devices['Desktop Chrome'], launchOptions: { executablePath, args: CHROMIUM_ARGS } } },
    // Read-only maintenance holds every write on the shared server (docs/adr/0280): that spec runs alone, after the rest.
    { name: 'read-only', testMatch: /read-only\.spec\.ts/, dependencies: ['chromium'],
      use: { ...devices['Desktop Chrome'], launchOptions: { executablePath, args: CHROMIUM_ARGS } } },
  ],
  webServer: {
    command:
      `tsx supabase/local/cli.ts start --memory --api-port ${e2e.apiPort} --web-port ${e2e.webPort} ` +
      `--inbox-port ${e2e.inboxPort} --payments-port ${e2e.paymentsPort} --web-dir ${process.env.STOREWISE_WEB_OUT ?? 'dist/web'} --desktop-dir out/renderer`,
    url: `${e2e.webUrl}/config.json`,
    env: {
      STOREWISE_JWT_SECRET: e2e.jwtSecret,
      STOREWISE_QUIET: '1',
      // Every e2e sign-in comes from 127.0.0.1: GoTrue's per-IP defaults would throttle a full run.
      STOREWISE_AUTH_RATE_LIMITS: 'token=2000,signup_recover=500,verify=500',
      // Every browser of the run shares 127.0.0.1: GoTrue's 15 MFA challenges and verifies a minute would be one test's worth.
      STOREWISE_AUTH_MFA_RATE_LIMIT: '300',
    },
    reuseExistingServer: !process.env.CI,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
