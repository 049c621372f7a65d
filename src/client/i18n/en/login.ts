import common from './common.json';
import auth from './auth.json';

/** What the sign-in screen shows: in the entry chunk (English is the default, the first load stays small). */
export const enLogin = { common, auth };
