// Values the entry (index.ts) needs from modules too heavy to load at startup, computed by
// scripts/build.mjs from those modules (handshakeCapture.ts) when it bundles the entry.

declare module 'redline:build-time' {
  /** The full server's replies to the handshake. */
  export const handshake: import('./handshake').PublishedHandshake;
  /** shared/protocol.ts's IPC_PATH_ENV. */
  export const IPC_PATH_ENV: string;
}
