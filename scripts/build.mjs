// Builds the bundles: the extension (CommonJS, `vscode` external), the webview script (iife), and
// the MCP server, which runs with plain `node`: dist/mcp-server.js, a small entry that answers a
// client's opening from dist/mcp-server-opening.json (the full server's answers, captured here),
// then loads the rest, dist/mcp-server-full.js, with `require`; and the review's view for chats
// that render MCP Apps, dist/review-view.html, one document with its script and style inline.
// Type-checking is separate (`npm run typecheck`); esbuild only strips types.

import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  legalComments: 'none',
  logLevel: 'info',
  define: { __REDLINE_VERSION__: JSON.stringify(version) },
};

const builds = [
  {
    ...common,
    entryPoints: ['extension/src/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    plugins: [withoutZodLocales()],
  },
  {
    // The render worker (extension/src/render/renderWorkerPool.ts starts it beside dist/extension.js).
    ...common,
    entryPoints: ['extension/src/render/renderWorker.ts'],
    outfile: 'dist/renderWorker.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  {
    ...common,
    entryPoints: ['extension/webview/main.ts'],
    outfile: 'dist/webview.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
  {
    // highlight.js and its grammars, which the webview loads the first time a code block nears the
    // screen (extension/webview/highlighterScript.ts reads the global this defines).
    ...common,
    entryPoints: ['shared/codeGrammars.ts'],
    outfile: 'dist/highlighter.js',
    platform: 'browser',
    format: 'iife',
    globalName: 'redlineHighlighter',
    target: 'es2022',
  },
  {
    ...common,
    entryPoints: ['mcp-server/src/index.ts'],
    outfile: 'dist/mcp-server.js',
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    // The review's view (mcp-server/view/), put into its HTML by the plugin: always minified, since
    // every chat that renders it reads it whole.
    ...common,
    entryPoints: ['mcp-server/view/main.ts'],
    outfile: 'dist/review-view.js',
    sourcemap: false,
    minify: true,
    write: false,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    plugins: [withoutZodLocales(), withoutClientJsonSchemaValidator(), writeViewHtml('dist/review-view.html')],
  },
  {
    // The server and command line, loaded by the entry with `require` (mcp-server/src/index.ts).
    ...common,
    entryPoints: ['mcp-server/src/fullServer.ts'],
    outfile: 'dist/mcp-server-full.js',
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    plugins: [withoutZodLocales(), withoutJsonSchemaValidator(), publishOpening('dist/mcp-server-opening.json')],
  },
];

/**
 * zod's `z.locales` (error messages in some 50 languages, about a third of the full server's code) is used
 * by neither Redline nor the SDK; English, the default, is imported on its own and stays. Both the
 * extension and the full server import zod through shared/protocol.ts, so both drop them.
 */
function withoutZodLocales() {
  return {
    name: 'without-zod-locales',
    setup(build) {
      build.onLoad({ filter: /[\\/]node_modules[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
        contents: 'export {};',
        loader: 'js',
      }));
    },
  };
}

/**
 * After each build of the full server, asks the same sources for their answers to a client's
 * opening (captureOpening) and writes them to `file`, which the entry reads at start. A JSON file
 * rather than a constant built into the entry: the answers are data, parsed as such, and when a
 * tool's schema changes only this file changes, so watch mode rewrites it after rebuilding the full
 * server and the entry needs no rebuild.
 */
function publishOpening(file) {
  return {
    name: 'publish-opening',
    setup(build) {
      build.onEnd(async (result) => {
        if (result.errors.length > 0) return;
        writeFileSync(file, JSON.stringify(await captureOpening()));
      });
    },
  };
}

/** The answers, from mcp-server/src/opening/openingCapture.ts bundled on its own and run here. */
async function captureOpening() {
  const dir = mkdtempSync(join(tmpdir(), 'redline-opening-'));
  try {
    const outfile = join(dir, 'capture.cjs');
    await esbuild.build({
      entryPoints: ['mcp-server/src/opening/openingCapture.ts'],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node18',
      define: common.define,
      logLevel: 'warning',
    });
    return await createRequire(import.meta.url)(outfile).captureOpening();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The SDK's server validates with a JSON Schema validator (Ajv, about a quarter of the server's
 * bundle) only what a client answers to an elicitation, and Redline never elicits: its tools ask
 * the user in VS Code itself. So the server bundle gets the SDK's Node shim without Ajv, whose
 * validator says so should that ever change, and starts without compiling Ajv first.
 */
function withoutJsonSchemaValidator() {
  return sdkShimWithoutValidator('server', {
    exports: "import process from 'node:process';\nexport { process };",
    why: 'Redline does not elicit, so its server carries no JSON Schema validator',
  });
}

/**
 * The MCP client's Protocol, under the view's App class, brings a JSON Schema validator for the
 * results of tools with an output schema, which the view's App never checks (it reads the results
 * with the protocol's zod schemas). The same stand-in as the server's, in the browser's shim.
 */
function withoutClientJsonSchemaValidator() {
  return sdkShimWithoutValidator('client', {
    exports: 'export const CORS_IS_POSSIBLE = true;',
    why: 'The review view carries no JSON Schema validator',
  });
}

/** The SDK package's `_shims` with `exports` and a validator that throws, saying `why`. */
function sdkShimWithoutValidator(sdkPackage, { exports, why }) {
  const shim = `sdk-${sdkPackage}-shim`;
  return {
    name: `without-${sdkPackage}-json-schema-validator`,
    setup(build) {
      build.onResolve({ filter: new RegExp(`^@modelcontextprotocol/${sdkPackage}/_shims$`) }, () => ({
        path: shim,
        namespace: 'redline',
      }));
      build.onLoad({ filter: new RegExp(`^${shim}$`), namespace: 'redline' }, () => ({
        loader: 'js',
        contents: `
          ${exports}
          export class DefaultJsonSchemaValidator {
            getValidator() {
              throw new Error(${JSON.stringify(`${why} (scripts/build.mjs).`)});
            }
          }`,
      }));
    },
  };
}

/** Puts the view's script and stylesheet into its HTML template, and writes the one file. */
function writeViewHtml(file) {
  return {
    name: 'write-view-html',
    setup(build) {
      build.onEnd((result) => {
        if (result.errors.length > 0) return;
        // Inside a <script> element, "</script" would end it early, whatever JavaScript thought of it.
        const script = result.outputFiles[0].text.replaceAll('</script', '<\\/script').trim();
        const style = readFileSync('mcp-server/view/view.css', 'utf8').replaceAll('</style', '<\\/style').trim();
        const template = readFileSync('mcp-server/view/view.html', 'utf8');
        const html = template.replace('/*STYLE*/', () => style).replace('/*SCRIPT*/', () => script);
        if (html === template || html.includes('/*SCRIPT*/'))
          throw new Error('The view template lost its placeholders.');
        writeFileSync(file, html);
      });
    },
  };
}

// The diagram renderer: mermaid's own single-file browser build, shipped as it is beside the webview
// script, which loads it only for a review with a diagram (extension/webview/mermaidDiagrams.ts).
mkdirSync('dist', { recursive: true });
copyFileSync(createRequire(import.meta.url).resolve('mermaid/dist/mermaid.min.js'), 'dist/mermaid.min.js');
// The TOML editor (Rust's toml_edit as WebAssembly), loaded the first time a config.toml is edited.
copyFileSync(
  createRequire(import.meta.url).resolve('@rainbowatcher/toml-edit-js/index_bg.wasm'),
  'dist/toml-edit.wasm',
);

if (watch) {
  for (const options of builds) await (await esbuild.context(options)).watch();
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
