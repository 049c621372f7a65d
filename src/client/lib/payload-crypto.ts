import { PAYLOAD_KEY } from './payload-key';

/**
 * The payload crypto of the spec (section 7) with the built-in key. crypto-js is loaded on first use, not with the
 * login screen: nothing is encrypted or decrypted before the user submits the form or a signed-in page loads.
 */
const crypto = () => import('../../shared/crypto');

export async function encryptText(plain: string): Promise<string> {
  return (await crypto()).encryptPayload(plain, PAYLOAD_KEY);
}

export async function encryptValue(value: unknown): Promise<string> {
  return (await crypto()).encryptJson(value, PAYLOAD_KEY);
}

/** The decrypted JSON value, or null when it is missing or does not decrypt. */
export async function decryptValue(cipher: unknown): Promise<unknown> {
  return (await crypto()).decryptJson(cipher, PAYLOAD_KEY);
}
