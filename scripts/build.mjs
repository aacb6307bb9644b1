// Builds the three bundles: the extension (CommonJS, `vscode` external), the webview script
// (iife), and the MCP server (dist/mcp-server.js), one self-contained file that runs with plain
// `node`: a small entry that answers the MCP handshake, carrying the full server it loads afterwards.
// Type-checking is separate (`npm run typecheck`); esbuild only strips types.

import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { brotliCompressSync, constants as zlibConstants } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

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
    ...common,
    entryPoints: ['extension/webview/main.ts'],
    outfile: 'dist/webview.js',
    platform: 'browser',
    format: 'iife',
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
    plugins: [mcpServerEntry()],
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
      build.onLoad({ filter: /[\\/]node_modules[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({ contents: 'export {};', loader: 'js' }));
    },
  };
}

/**
 * Keeps the MCP server's entry small and still one self-contained file. `./fullServer` becomes
 * the full server's own bundle, brotli-compressed into a string that is only decompressed and
 * compiled at hand-off (a string costs well under a millisecond to load; the same code as code
 * costs tens). `redline:build-time` becomes the full server's handshake replies, captured by
 * running mcp-server/src/handshakeCapture.ts. Both are rebuilt in watch mode when their inputs change.
 */
function mcpServerEntry() {
  return {
    name: 'mcp-server-entry',
    setup(build) {
      build.onResolve({ filter: /^\.\/fullServer$/ }, (args) => ({ path: args.path, namespace: 'redline-full' }));
      build.onLoad({ filter: /.*/, namespace: 'redline-full' }, async () => {
        const { code, inputs } = await bundleFullServer();
        const packed = brotliCompressSync(code, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }).toString('base64');
        return {
          contents: [
            `const code = require('zlib').brotliDecompressSync(Buffer.from(${JSON.stringify(packed)}, 'base64')).toString('utf8');`,
            `const fullServer = { exports: {} };`,
            `require('vm').compileFunction(code, ['exports', 'require', 'module', '__filename', '__dirname'], { filename: __filename + '#full' })`,
            `  (fullServer.exports, require, fullServer, __filename, __dirname);`,
            `module.exports = fullServer.exports;`,
          ].join('\n'),
          loader: 'js',
          watchFiles: inputs,
        };
      });
      build.onResolve({ filter: /^redline:build-time$/ }, (args) => ({ path: args.path, namespace: 'redline' }));
      build.onLoad({ filter: /.*/, namespace: 'redline' }, async () => {
        const { handshake, IPC_PATH_ENV, inputs } = await captureHandshake();
        return {
          contents: `export const handshake = ${JSON.stringify(handshake)};\nexport const IPC_PATH_ENV = ${JSON.stringify(IPC_PATH_ENV)};\n`,
          loader: 'js',
          watchFiles: inputs,
        };
      });
    },
  };
}

/** The full server (the SDK's McpServer and the tools) as one CommonJS bundle, in memory. */
async function bundleFullServer() {
  const result = await esbuild.build({
    ...common,
    entryPoints: ['mcp-server/src/fullServer.ts'],
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    sourcemap: false,
    write: false,
    metafile: true,
    logLevel: 'warning',
    plugins: [withoutZodLocales()],
  });
  return { code: result.outputFiles[0].contents, inputs: Object.keys(result.metafile.inputs).map((input) => resolve(input)) };
}

async function captureHandshake() {
  const dir = mkdtempSync(join(tmpdir(), 'redline-handshake-'));
  try {
    const outfile = join(dir, 'capture.cjs');
    const { metafile } = await esbuild.build({
      entryPoints: ['mcp-server/src/handshakeCapture.ts'],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node18',
      define: common.define,
      metafile: true,
      logLevel: 'warning',
    });
    const capture = createRequire(import.meta.url)(outfile);
    const inputs = Object.keys(metafile.inputs).map((input) => resolve(input));
    return { handshake: await capture.captureHandshake(), IPC_PATH_ENV: capture.IPC_PATH_ENV, inputs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// The diagram renderer: mermaid's own single-file browser build, shipped as it is beside the webview
// script, which loads it only for a review with a diagram (extension/webview/mermaidDiagrams.ts).
mkdirSync('dist', { recursive: true });
copyFileSync(createRequire(import.meta.url).resolve('mermaid/dist/mermaid.min.js'), 'dist/mermaid.min.js');
// The TOML editor (Rust's toml_edit as WebAssembly), loaded the first time a config.toml is edited.
copyFileSync(createRequire(import.meta.url).resolve('@rainbowatcher/toml-edit-js/index_bg.wasm'), 'dist/toml-edit.wasm');

if (watch) {
  for (const options of builds) await (await esbuild.context(options)).watch();
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
