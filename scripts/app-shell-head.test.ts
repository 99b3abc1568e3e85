import { describe, expect, it } from 'vitest';
import { appShellHtml } from './app-shell-head';
import { globalStyleTags } from './prerender';

const template = '<html><head><title>Storewise</title></head><body><div id="root"></div></body></html>';
const styleTags =
  '<style data-emotion="css-global ad1llf">@layer reset,base,tokens,recipes;</style>' +
  '<style data-emotion="css-global yq0ray">@layer tokens{:where(:root){--chakra-colors-blue-600:#2563eb;}}a>b{c:d}</style>' +
  '<style data-emotion="css 1x2y3z">.css-1x2y3z{color:red;}</style>';

describe('the app shell carries Chakra\'s global styles (docs/adr/0435)', () => {
  it('takes every global tag whole, marked to be adopted in place, and no component styles', () => {
    const globals = globalStyleTags(styleTags);
    expect(globals).toBe(
      '<style data-s="" data-emotion="css-global ad1llf">@layer reset,base,tokens,recipes;</style>' +
      '<style data-s="" data-emotion="css-global yq0ray">@layer tokens{:where(:root){--chakra-colors-blue-600:#2563eb;}}a>b{c:d}</style>',
    );
    expect(globals).not.toContain('css-1x2y3z');
    expect(globalStyleTags('<style data-emotion="css 1x">.a{}</style>')).toBe('');
  });

  it('ends the shell\'s head with them, after the manifest link, so the app finds them (shared/app/theme.ts)', () => {
    const shell = appShellHtml(template, globalStyleTags(styleTags));
    const head = shell.slice(0, shell.indexOf('</head>'));
    expect(head.indexOf('rel="manifest"')).toBeGreaterThan(0);
    expect(head.indexOf('data-emotion="css-global ad1llf"')).toBeGreaterThan(head.indexOf('rel="manifest"'));
    expect(head.trimEnd().endsWith('</style>')).toBe(true);
    expect(appShellHtml(template)).not.toContain('<style');
  });
});
