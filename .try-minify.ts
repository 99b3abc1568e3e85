import { build } from 'vite';
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
const minify = process.argv[2] as 'esbuild' | 'oxc' | 'terser';
const outDir = `/tmp/p8/min-${minify}`;
await build({ configFile: '/work/main/vite.config.ts', logLevel: 'error', build: { outDir, emptyOutDir: true, manifest: true, sourcemap: false, minify } });
const m = JSON.parse(readFileSync(`${outDir}/.vite/manifest.json`, 'utf8'));
const entry = Object.values(m).find((v: any) => v.isEntry) as any;
console.log(minify, entry.file, (gzipSync(readFileSync(`${outDir}/${entry.file}`)).length / 1024).toFixed(1));
