import common from './common.json';
import auth from './auth.json';
import messages from './messages.json';
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

/** The English texts, one file per area; they load with the entry chunk (English is the default). */
export const en = { common, auth, messages, shell, settings, a11y, game, notfound, reports, dashboard, whatsnew, feedback, devices };

/** The shape every language's texts must have (a missing key in Hindi is a type error). */
export type Texts = typeof en;
