// The per-window secret. It never crosses the socket: both ends prove they hold it with an HMAC
// over fresh nonces (shared/authProof.ts).

import { randomBytes } from 'crypto';

/** 128 random bits, hex-encoded. */
export function createToken(): string {
  return randomBytes(16).toString('hex');
}
