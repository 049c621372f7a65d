import type { Texts } from '../en';
import common from './common.json';
import auth from './auth.json';
import messages from './messages.json';

/** The Hindi texts: a chunk of its own, loaded only when Hindi is chosen. */
export const hi: Texts = { common, auth, messages };
