/** Constants shared by client and server (spec section 9). */
export const VERSION_LABEL = 'v2.1.0';
export const RELEASE_NAME = 'Kanchenjunga';

/** Built-in default of the payload key (spec: a fixed symmetric key embedded in the client). Override with HHT_PAYLOAD_KEY. */
export const DEFAULT_PAYLOAD_KEY = 'IR-HHT-Portal-Payload-Key-2.1';

export const USER_LEVELS = ['SU', 'ZA', 'ZU', 'DA', 'DU', 'LA', 'LU', 'RO'] as const;
export type UserLevel = (typeof USER_LEVELS)[number];
