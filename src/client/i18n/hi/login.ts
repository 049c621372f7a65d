import type { Texts } from '../en';
import enMessages from '../en/messages.json';
import common from './common.json';
import auth from './auth.json';
import messages from './messages.json';
import './devanagari.css';

/** The sign-in screen and the message catalogue in Hindi: a chunk of its own, loaded only when Hindi is chosen. */
export const hiLogin: Pick<Texts, 'common' | 'auth' | 'messages'> = { common, auth, messages };

/** The English catalogue: what the messages in English look like, to find their Hindi (i18n/messages.ts). */
export const catalogueEn: Texts['messages'] = enMessages;
