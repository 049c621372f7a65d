declare const __HHT_PAYLOAD_KEY__: string;

/** The payload key baked in at build time (HHT_PAYLOAD_KEY or the built-in default; spec section 7). */
export const PAYLOAD_KEY: string = __HHT_PAYLOAD_KEY__;
