// The per-window secret that a client must present in its first message.

import { createHash, randomBytes, timingSafeEqual } from 'crypto';

/** 128 random bits, hex-encoded. */
export function createToken(): string {
  return randomBytes(16).toString('hex');
}

/** Constant-time comparison; hashing first makes the lengths equal so the length leaks nothing either. */
export function tokensMatch(presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b) && expected.length > 0;
}
