// Bundles the extension (node, cjs, `vscode` external) and the host test entry with esbuild.
// Flags: --production (minify, no dev entries), --watch.
import * as esbuild from 'esbuild';
import { existsSync, rmSync } from 'node:fs';
import { mcpCfWorkerValidator } from './mcpBundle.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
// Start from an empty dist/: a file an older build left there (dist/undici.js was one) must not
// be mistaken for part of this build.
rmSync('dist', { recursive: true, force: true });

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  sourcemap: production ? 'external' : 'inline',
  sourcesContent: !production,
  logLevel: 'warning',
  legalComments: 'none',
};

// The extension's HTTP engine is the extension host's own fetch: npm undici must never be bundled.
/** @type {import('esbuild').Plugin} */
const noUndici = {
  name: 'no-undici',
  setup(build) {
    build.onResolve({ filter: /^undici(\/|$)/ }, (args) => ({ errors: [{ text: `undici imported by ${args.importer}: use the transport's fetch engine` }] }));
  },
};

// pdf.js polyfills `globalThis.navigator` in Node when it has no `language`; VS Code's extension
// host defines `navigator` as a getter that returns undefined, so that assignment throws (and the
// global is shared with every extension). pdf.js gets a navigator of its own instead.
/** @type {import('esbuild').Plugin} */
const pdfjsOwnNavigator = {
  name: 'pdfjs-own-navigator',
  setup(build) {
    build.onLoad({ filter: /pdfjs-dist[\\/]legacy[\\/]build[\\/]pdf(\.worker)?\.mjs$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const source = await readFile(args.path, 'utf8');
      const own = "var __pdfjsNavigator = (() => { try { const n = globalThis.navigator; if (n && n.language) return n; } catch {} return { language: 'en-US', platform: '', userAgent: '' }; })();\n";
      return { contents: own + source.replaceAll('globalThis.navigator', '__pdfjsNavigator'), loader: 'js' };
    });
  },
};

/** @type {import('esbuild').BuildOptions[]} */
const builds = [
  {
    ...common,
    entryPoints: { extension: 'src/extension.ts' },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    plugins: [noUndici],
    minify: production,
    metafile: true,
  },
  // The search index's build worker (a worker thread the extension starts for the cold build when a
  // core is spare; src/features/search/service.ts looks for it next to extension.js).
  // The index worker: the thread that owns the search index (src/core/search/worker/indexWorker.ts; the
  // host talks to it through src/core/search/worker/indexClient.ts and keeps only small answers).
  { ...common, entryPoints: { searchWorker: 'src/core/search/build/buildWorker.ts', searchIndexWorker: 'src/core/search/worker/indexWorker.ts' }, outdir: 'dist', platform: 'node', format: 'cjs', target: 'node20', minify: production, metafile: true },
];
// pdf.js for the documents feature: its own file, required on first use (src/features/documents/pdfjs.ts).
builds.push({ ...common, entryPoints: { pdfjs: 'src/core/documents/pdfjsEntry.ts' }, outdir: 'dist', platform: 'node', format: 'cjs', target: 'node20', minify: true, sourcemap: false, metafile: true, plugins: [pdfjsOwnNavigator] });
// The console as an MCP server (src/mcp/main.ts): its own file, run by Node alone (`node dist/mcp.js`),
// by VS Code's MCP support (src/features/mcp) or by any other agent's host; no `vscode` in it.
builds.push({ ...common, entryPoints: { mcp: 'src/mcp/main.ts' }, outdir: 'dist', platform: 'node', format: 'cjs', target: 'node20', plugins: [noUndici, mcpCfWorkerValidator], minify: production, sourcemap: production ? 'external' : 'inline', metafile: true });
// The document view's page.
builds.push({ ...common, entryPoints: { documents: 'src/webview/documents/main.ts' }, outdir: 'dist/webview', platform: 'browser', format: 'iife', target: 'es2022', minify: production, sourcemap: production ? false : 'inline', metafile: true });
if (existsSync('media/usage/main.ts')) {
  builds.push({ ...common, entryPoints: { usage: 'media/usage/main.ts' }, outdir: 'dist/webview', platform: 'browser', format: 'iife', target: 'es2022', minify: production });
}
// The Usage webview: its own browser bundle (uPlot included, no CDN), with its CSS next to it.
if (existsSync('src/webview/usage/main.ts')) {
  builds.push({ ...common, entryPoints: { usage: 'src/webview/usage/main.ts' }, outdir: 'dist/webview', platform: 'browser', format: 'iife', target: 'es2022', minify: production, sourcemap: production ? false : 'inline', metafile: true });
}
if (!production) {
  // Host tests run inside the extension host; mocha stays external and resolves from node_modules.
  builds.push({ ...common, entryPoints: { index: 'test/host/index.ts' }, outdir: 'out/test/host', platform: 'node', format: 'cjs', target: 'node20', external: ['vscode', 'mocha'] });
}

if (watch) {
  for (const options of builds) await (await esbuild.context(options)).watch();
  console.log('[build] watching…');
} else {
  const results = await Promise.all(builds.map((options) => esbuild.build(options)));
  const out = results[0]?.metafile?.outputs['dist/extension.js'];
  if (out) console.log(`[build] dist/extension.js ${(out.bytes / 1024).toFixed(1)} KB${production ? ' (production)' : ''}`);
  for (const r of results) {
    for (const [file, o] of Object.entries(r.metafile?.outputs ?? {})) {
      if (file.startsWith('dist/webview/') || file === 'dist/searchWorker.js' || file === 'dist/searchIndexWorker.js' || file === 'dist/pdfjs.js' || file === 'dist/mcp.js') console.log(`[build] ${file} ${(o.bytes / 1024).toFixed(1)} KB${production ? ' (production)' : ''}`);
    }
  }
}
