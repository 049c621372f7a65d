import type { Texts } from '../en';
import common from './common.json';
import auth from './auth.json';
import messages from './messages.json';
import './devanagari.css';
import shell from './shell.json';
import settings from './settings.json';
import a11y from './a11y.json';
import game from './game.json';
import notfound from './notfound.json';
import reports from './reports.json';
import dashboard from './dashboard.json';
import whatsnew from './whatsnew.json';
import feedback from './feedback.json';
import devices from './devices.json';

/** The Hindi texts: a chunk of its own, loaded only when Hindi is chosen. */
export const hi: Texts = { common, auth, messages, shell, settings, a11y, game, notfound, reports, dashboard, whatsnew, feedback, devices };
