import type { Texts } from '../en';
import { hiLogin } from './login';
import { hiApp } from './app';

/** All Hindi texts (the app loads them in two parts: login.ts and app.ts). */
export const hi: Texts = { ...hiLogin, ...hiApp };
