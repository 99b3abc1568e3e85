// Zod probes `new Function('')` to speed up object parsing; under the app's CSP (script-src 'self', no
// 'unsafe-eval') the probe is refused and Chromium logs a CSP violation on every page that parses a form.
// Zod keeps its settings on this global so that every copy of it shares them; setting it before zod loads
// is z.config({ jitless: true }) without pulling zod into the landing's entry chunk (11 KB).
// Imported first by each entry; zod-jitless.test.ts checks that zod reads it. The object is changed in place, so a
// zod that loaded first (and holds the object) reads it too.
const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
(holder.__zod_globalConfig ??= {}).jitless = true;

export {};
