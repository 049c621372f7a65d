import common from './common.json';
import auth from './auth.json';
import messages from './messages.json';

/** The English texts, one file per area; they load with the entry chunk (English is the default). */
export const en = { common, auth, messages };

/** The shape every language's texts must have (a missing key in Hindi is a type error). */
export type Texts = typeof en;
