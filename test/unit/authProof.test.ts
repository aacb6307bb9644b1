import { clientProof, createNonce, proofsMatch, serverProof } from '../../shared/authProof';

describe('handshake proofs', () => {
  const token = '0123456789abcdef0123456789abcdef';
  const a = createNonce();
  const b = createNonce();

  it('are fresh nonces of 256 bits', () => {
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(a).not.toBe(b);
  });

  it('depend on the token and on both nonces, and a server proof never passes as a client proof', () => {
    const proof = serverProof(token, a, b);
    expect(proof).toMatch(/^[0-9a-f]{64}$/);
    expect(serverProof(token, a, b)).toBe(proof);
    expect(serverProof('f'.repeat(32), a, b)).not.toBe(proof);
    // A raw HMAC key would be zero-padded, making token + NUL an equivalent key.
    expect(serverProof(token + '\u0000', a, b)).not.toBe(proof);
    expect(serverProof(token, b, a)).not.toBe(proof);
    expect(serverProof(token, a, createNonce())).not.toBe(proof);
    // Same nonces in the order a client proof uses them: still different, because of the labels.
    expect(clientProof(token, a, b)).not.toBe(serverProof(token, b, a));
    expect(clientProof(token, a, b)).not.toBe(proof);
    expect(proof).not.toContain(token);
  });

  it('compare equal only when identical', () => {
    const proof = clientProof(token, a, b);
    expect(proofsMatch(proof, clientProof(token, a, b))).toBe(true);
    expect(proofsMatch(proof.slice(0, 63) + (proof[63] === '0' ? '1' : '0'), proof)).toBe(false);
    expect(proofsMatch(proof.slice(0, 32), proof)).toBe(false);
    expect(proofsMatch('', '')).toBe(false);
  });
});
