import { enLogin } from './login';
import { enApp } from './app';
import messages from './messages.json';

/**
 * All English texts, one file per area. The app loads them in parts: login.ts with the entry, app.ts with the
 * signed-in screens; messages.json (the catalogue's English, which the code compares and shows as it is) only
 * with Hindi, to recognise the messages it translates.
 */
export const en = { ...enLogin, messages, ...enApp };

/** The shape every language's texts must have (a missing key in Hindi is a type error). */
export type Texts = typeof en;
