import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decryptSecret, encryptSecret, generateCredentials, hashPassphrase, passphraseMatches } from '../../src/identity/api-key-crypto.ts';
import { hmacSignature, pathWithoutQuery, signaturesEqual, signedMessage } from '../../src/identity/hmac.ts';

describe('API-key secret encryption', () => {
  const key = randomBytes(32);

  it('round-trips any secret', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 100 }), (secret) => {
      const apiKey = randomUUID();
      assert.equal(decryptSecret(key, apiKey, encryptSecret(key, apiKey, secret)), secret);
    }));
  });

  it('uses a fresh IV each time', () => {
    const apiKey = randomUUID();
    assert.notEqual(encryptSecret(key, apiKey, 'same'), encryptSecret(key, apiKey, 'same'));
  });

  it('refuses another server key, another API key (moved ciphertext) and tampered data', () => {
    const apiKey = randomUUID();
    const stored = encryptSecret(key, apiKey, 'the secret');
    assert.throws(() => decryptSecret(randomBytes(32), apiKey, stored));
    assert.throws(() => decryptSecret(key, randomUUID(), stored));
    const bytes = Buffer.from(stored.split('.')[1]!, 'base64url');
    bytes[bytes.length - 1]! ^= 1;
    assert.throws(() => decryptSecret(key, apiKey, `v1.${bytes.toString('base64url')}`));
    assert.throws(() => decryptSecret(key, apiKey, 'v2.abc'));
  });
});

describe('API-key passphrase hashing', () => {
  it('matches the passphrase and nothing else', () => {
    fc.assert(fc.property(fc.string({ minLength: 1, maxLength: 64 }), fc.string({ maxLength: 64 }), (passphrase, other) => {
      const stored = hashPassphrase(passphrase);
      assert.ok(passphraseMatches(passphrase, stored));
      assert.equal(passphraseMatches(other, stored), other === passphrase);
    }), { numRuns: 200 });
  });

  it('salts each hash and refuses malformed stored values', () => {
    assert.notEqual(hashPassphrase('p'), hashPassphrase('p'));
    assert.equal(passphraseMatches('p', 'plain'), false);
    assert.equal(passphraseMatches('p', 'md5.a.b'), false);
  });

  it('generates 32-byte base64url secrets and passphrases with a UUID key', () => {
    const credentials = generateCredentials();
    assert.match(credentials.apiKey, /^[0-9a-f-]{36}$/);
    assert.equal(Buffer.from(credentials.secret, 'base64url').length, 32);
    assert.equal(Buffer.from(credentials.passphrase, 'base64url').length, 32);
  });
});

describe('HMAC request signatures', () => {
  it('matches independently computed vectors (key = UTF-8 bytes of the secret)', () => {
    assert.equal(hmacSignature('test-secret', signedMessage('1700000000000', 'post', '/api/v1/orders', '{"a":1}')), 'f69b1860cdd7a79265f890089492982184f7e8dd12ffb076fbd13b7c9b31b8e2');
    assert.equal(hmacSignature('sécret', signedMessage('1', 'GET', '/user', '')), 'efdf1d656d1e98498a3d4416604889ce1ca012f6e132abbe370669c6ec50f766');
  });

  it('compares signatures exactly, whatever their lengths', () => {
    fc.assert(fc.property(fc.string(), fc.string(), (a, b) => {
      assert.equal(signaturesEqual(a, b), a === b);
    }));
  });

  it('drops only the query string from the path', () => {
    assert.equal(pathWithoutQuery('/api/v1/orders?market=1&x=?'), '/api/v1/orders');
    assert.equal(pathWithoutQuery('/api/v1/acc%6Funt'), '/api/v1/acc%6Funt');
    assert.equal(pathWithoutQuery('/api/v1/orders?'), '/api/v1/orders');
  });
});
