import type { AppTexts } from '../en/app';
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
import subscriptions from './subscriptions.json';
import views from './views.json';
import freshness from './freshness.json';

/** The signed-in screens in Hindi, loaded when Hindi is chosen and those screens are open. */
export const hiApp: AppTexts = { shell, settings, a11y, game, notfound, reports, dashboard, whatsnew, feedback, devices, subscriptions, views, freshness };
