import AES from 'crypto-js/aes';
import Utf8 from 'crypto-js/enc-utf8';

/**
 * Payload crypto of the spec (section 7): AES with a passphrase, in CryptoJS's OpenSSL format
 * ('U2FsdGVkX1...' = "Salted__" + 8-byte salt + ciphertext, base64). Same functions on client and server.
 * This is obfuscation required for compatibility, not security: the key ships in the client.
 */
export function encryptPayload(plain: string, key: string): string {
  return AES.encrypt(plain, key).toString();
}

/** Decrypts an OpenSSL-format ciphertext; null when it is not one, the key is wrong or the result is not UTF-8. */
export function decryptPayload(cipher: unknown, key: string): string | null {
  if (typeof cipher !== 'string' || cipher.length < 24 || cipher.length > 8192) return null;
  if (!/^U2FsdGVkX1[A-Za-z0-9+/]+={0,2}$/.test(cipher)) return null;
  try {
    const text = AES.decrypt(cipher, key).toString(Utf8);
    return text.length > 0 ? text : null;
  } catch {
    return null; // malformed UTF-8 (wrong key) throws inside crypto-js
  }
}

/** Encrypts a JSON value (profile, train list). */
export function encryptJson(value: unknown, key: string): string {
  return encryptPayload(JSON.stringify(value), key);
}

/** Decrypts and parses a JSON value; null on any failure. */
export function decryptJson(cipher: unknown, key: string): unknown {
  const text = decryptPayload(cipher, key);
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
