// Types for the part of @rainbowatcher/toml-edit-js that tomlEngine.ts uses: its wasm-bindgen
// entry ships without a declaration file (only the self-initialising default entry has one).

declare module '@rainbowatcher/toml-edit-js/index' {
  export interface EditOptions {
    /** End the document with a newline (default true). */
    readonly finalNewline?: boolean;
    /** Write an object as an inline table rather than a `[section]` (default true). */
    readonly inline?: boolean;
  }
  /** Compiles and instantiates the WebAssembly module, once. */
  export function initSync(options: { readonly module: BufferSource | WebAssembly.Module }): unknown;
  /** Throws a string (not an Error) for a syntax error, with its line and column. */
  export function parse(input: string): unknown;
  /** `input` with the value at the dotted `path` replaced (undefined: removed); throws a string on failure. */
  export function edit(input: string, path: string, value: unknown, options?: EditOptions): string;
}
