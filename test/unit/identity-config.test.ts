import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, parseConfig } from '../../src/config.ts';

describe('API_KEY_ENCRYPTION_KEY', () => {
  const hex = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff';

  it('is unset by default', () => {
    assert.equal(parseConfig({}).apiKeyEncryptionKey, undefined);
  });

  it('takes 32 bytes as hex or base64 (either alphabet) and normalises them to hex', () => {
    const bytes = Buffer.from(hex, 'hex');
    assert.equal(parseConfig({ API_KEY_ENCRYPTION_KEY: hex.toUpperCase() }).apiKeyEncryptionKey, hex);
    assert.equal(parseConfig({ API_KEY_ENCRYPTION_KEY: bytes.toString('base64') }).apiKeyEncryptionKey, hex);
    assert.equal(parseConfig({ API_KEY_ENCRYPTION_KEY: bytes.toString('base64url') }).apiKeyEncryptionKey, hex);
  });

  it('refuses anything that is not 32 bytes', () => {
    for (const value of [hex.slice(2), `${hex}00`, Buffer.alloc(31).toString('base64'), Buffer.alloc(33).toString('base64'), 'not a key at all']) {
      assert.throws(() => parseConfig({ API_KEY_ENCRYPTION_KEY: value }), ConfigError, value);
    }
  });
});
