/**
 * What only the app shell (app.html: /dashboard/* and the other routes the browser renders) adds to the page's
 * head (docs/adr/0200): the web app manifest, the theme colour and the icon a phone or tablet shows when the app
 * is installed at the counter. The public prerendered pages stay without them: a manifest link makes Chromium
 * fetch the manifest, a request the landing's budget has no room for.
 */
export const APP_SHELL_HEAD = [
  '<link rel="manifest" href="/manifest.webmanifest" />',
  '<meta name="theme-color" content="#2563eb" />',
  '<link rel="apple-touch-icon" href="/icons/icon-192.png" />',
].join('\n    ');

export function appShellHtml(template: string): string {
  if (!template.includes('</head>')) throw new Error('web/index.html has no </head> for the app shell\'s manifest link');
  return template.replace('</head>', `  ${APP_SHELL_HEAD}\n  </head>`);
}
