// Rust's toml_edit, compiled to WebAssembly (@rainbowatcher/toml-edit-js): the TOML editor that
// keeps every comment, blank line and alignment it does not have to touch. Its module is compiled
// only when a TOML file is first edited, so activation never pays for it.

import * as fs from 'fs';
import * as path from 'path';
// The package's default entry initialises itself with a top-level await, which a CommonJS bundle
// cannot hold; this one is the same code with initialisation left to us.
import { edit, initSync, parse } from '@rainbowatcher/toml-edit-js/index';

/** The name scripts/build.mjs copies the WebAssembly module to, beside dist/extension.js. */
export const TOML_WASM_FILE = 'toml-edit.wasm';

export interface TomlEngine {
  /** The document as plain values; throws a message with the line and column of a syntax error. */
  parse(text: string): unknown;
  /** `text` with the value at the dotted `keyPath` set (undefined: removed), everything else kept. */
  edit(text: string, keyPath: string, value: unknown): string;
}

let loaded: TomlEngine | undefined;

export function tomlEngine(): TomlEngine {
  if (!loaded) {
    initSync({ module: fs.readFileSync(wasmFile()) });
    loaded = {
      parse: (text) => parse(text),
      // Tables as `[mcp_servers.redline]` sections, as Codex's documentation writes them.
      edit: (text, keyPath, value) => edit(text, keyPath, value, { inline: false, finalNewline: true }),
    };
  }
  return loaded;
}

/**
 * Beside the bundle in the packaged extension; in the package itself when running from source
 * (the unit tests, the development host before a build), found by walking up to node_modules.
 */
function wasmFile(): string {
  const bundled = path.join(__dirname, TOML_WASM_FILE);
  if (fs.existsSync(bundled)) return bundled;
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', '@rainbowatcher', 'toml-edit-js', 'index_bg.wasm');
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`The TOML editor's ${TOML_WASM_FILE} is missing from ${__dirname}`);
  }
}
