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

/**
 * The shell's head: APP_SHELL_HEAD, then Chakra's global style tags written at build time (`globalStyleTags`,
 * already marked to be adopted in place: scripts/prerender.ts). With them in the page, shared/app/theme.ts gives
 * ChakraProvider no global styles to compute and insert at start (token variables, preflight: about 40 KB of
 * CSS serialised in the browser before the first screen could draw, docs/adr/0435). They end <head>, as on the
 * prerendered pages, so emotion appends its own tags after them.
 */
export function appShellHtml(template: string, globalStyleTags = ''): string {
  if (!template.includes('</head>')) throw new Error('web/index.html has no </head> for the app shell\'s manifest link');
  return template.replace('</head>', `  ${APP_SHELL_HEAD}${globalStyleTags ? `\n    ${globalStyleTags}` : ''}\n  </head>`);
}
