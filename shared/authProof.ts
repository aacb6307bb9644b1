// The proofs of the IPC handshake, computed the same way by both ends. Each side shows an HMAC of
// both nonces keyed by the token, and the server goes first, so a listener that does not hold the
// token gets nothing from a client: neither the token nor a proof it could replay elsewhere.

import { createHash, createHmac, randomBytes, timingSafeEqual } from 'crypto';

/** A fresh 256-bit nonce, hex: new for every connection, so no proof is ever valid twice. */
export function createNonce(): string {
  return randomBytes(32).toString('hex');
}

/** What the server shows first. The labels keep a server proof from ever passing as a client one. */
export function serverProof(token: string, clientNonce: string, serverNonce: string): string {
  return hmac(token, `redline-server\n${clientNonce}\n${serverNonce}`);
}

/** What the client shows once the server has proven itself. */
export function clientProof(token: string, serverNonce: string, clientNonce: string): string {
  return hmac(token, `redline-client\n${serverNonce}\n${clientNonce}`);
}

/** Constant-time comparison of two hex proofs. */
export function proofsMatch(presented: string, expected: string): boolean {
  const a = Buffer.from(presented, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && b.length > 0 && timingSafeEqual(a, b);
}

/**
 * Keyed by the token's hash, not the token: HMAC pads a short key with zeros, so a raw key of
 * token + "\0" would give the same proofs as the token itself.
 */
function hmac(token: string, text: string): string {
  const key = createHash('sha256').update(token, 'utf8').digest();
  return createHmac('sha256', key).update(text, 'utf8').digest('hex');
}
