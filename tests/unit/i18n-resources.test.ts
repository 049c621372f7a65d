import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from '../../src/client/i18n/en';
import { hi } from '../../src/client/i18n/hi';
import {
  LOGIN_MESSAGES, OTP_RESEND_MESSAGES, OTP_SEND_MESSAGES, OTP_VERIFY_MESSAGES, SERVER_MESSAGES, SESSION_MESSAGES,
} from '../../src/shared/auth-contract';
import { filterMessage } from '../../src/shared/definitions/filter-messages';
import { validateFeedback } from '../../src/shared/feedback';
import { DEVICE_STATUS_LABELS } from '../../src/shared/devices';

/** 'area.key' -> text of every leaf. */
function flatten(v: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof v === 'string') out.set(prefix, v);
  else if (typeof v === 'object' && v !== null) {
    for (const [k, x] of Object.entries(v)) for (const [kk, vv] of flatten(x, prefix ? `${prefix}.${k}` : k)) out.set(kk, vv);
  }
  return out;
}
const vars = (s: string): string[] => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1] ?? '').sort();

const EN = flatten(en);
const HI = flatten(hi);

describe('the Hindi texts', () => {
  it('have every English key and no other (no missing Hindi)', () => {
    expect([...HI.keys()].sort()).toEqual([...EN.keys()].sort());
    expect(EN.size).toBeGreaterThan(300);
  });

  it('are written in Devanagari, and use the same values as the English', () => {
    // Codes and names that stay as they are in Hindi (as Indian government portals write them).
    const sameInBoth = new Set(['common.languageName', 'auth.otp', 'devices.tte', 'devices.changeTte', 'devices.changeStatus']);
    for (const [key, text] of EN) {
      const h = HI.get(key) ?? '';
      expect(h.trim(), key).not.toBe('');
      expect(vars(h).filter((v) => !vars(text).includes(v)), `${key}: unknown values in Hindi`).toEqual([]);
      if (!sameInBoth.has(key) && text !== h) expect(/[\u0900-\u097F]/.test(h), `${key} is not Hindi: ${h}`).toBe(true);
      if (!sameInBoth.has(key) && /[a-z]{3}/.test(text.replace(/\{\{\w+\}\}/g, ''))) expect(h, `${key} is not translated`).not.toBe(text);
    }
  });

  it('have one file per area in both languages', () => {
    const files = (lng: string) => readdirSync(resolve('src/client/i18n', lng)).filter((f) => f.endsWith('.json')).sort();
    expect(files('hi')).toEqual(files('en'));
    expect(files('en').map((f) => f.replace('.json', '')).sort()).toEqual(Object.keys(en).sort());
  });
});

describe('the English texts are the spec words', () => {
  it('sign-in labels, not-found screen, game overlays, shell and panels', () => {
    const spec: Record<string, string> = {
      'auth.welcome': 'Welcome to IR-HHT',
      'auth.verifyOtp': 'Verify OTP',
      'auth.resendOtp': 'Resend OTP',
      'auth.backToLogin': 'Back to Login',
      'auth.refresh': 'Refresh',
      'auth.login': 'Login',
      'notfound.title': '404 Not Found',
      'notfound.lead': 'Requested resource is not available.',
      'notfound.faq': 'Frequently Asked Questions',
      'notfound.solution': 'Solution Center',
      'notfound.contact': '(Contact to HHT Team)',
      'notfound.permission': 'You dont have permission to view this page',
      'shell.logoTooltip': 'Click me to Dashboard',
      'game.paused': 'Paused',
      'game.ready': 'Get Ready!',
      'game.levelUp': 'Level Up!',
      'game.ouch': 'Ouch! Ready...',
      'game.gameOver': 'Game Over! Restarting...',
      'game.pause': 'Pause',
      'game.resume': 'Resume',
      'game.back': 'Back to Footer',
      'a11y.colorContrast': 'Color Contrast',
      'a11y.dark': 'Dark Mode',
      'a11y.invert': 'Invert',
      'a11y.saturation': 'Saturation',
      'a11y.highlightLinks': 'Highlight Links',
      'a11y.textSize': 'Text Size',
      'a11y.textSpacing': 'Text Spacing',
      'a11y.lineHeight': 'Line Height',
      'a11y.others': 'Others',
      'a11y.screenReader': 'Screen Reader',
      'a11y.dyslexia': 'Dyslexia Friendly',
    };
    for (const [key, text] of Object.entries(spec)) expect(EN.get(key), key).toBe(text);
  });

  it('every message of the error catalogue (section 8), as the shared constants hold them', () => {
    const catalogue: Record<string, string> = {
      'messages.captchaLoadFailed': LOGIN_MESSAGES.captchaLoadFailed,
      'messages.captchaLocked': LOGIN_MESSAGES.locked(NaN).replace('NaN', '{{seconds}}'),
      'messages.captchaUnsolved': LOGIN_MESSAGES.unsolved,
      'messages.loginError': LOGIN_MESSAGES.error,
      'messages.loginInvalidResponse': LOGIN_MESSAGES.invalidResponse,
      'messages.loginFallback': LOGIN_MESSAGES.fallback,
      'messages.otpNoUser': OTP_SEND_MESSAGES.noUser,
      'messages.otpSendFailed': OTP_SEND_MESSAGES.failed,
      'messages.otpSendFailedRetry': OTP_SEND_MESSAGES.failedRetry,
      'messages.otpExists': OTP_SEND_MESSAGES.exists,
      'messages.otpEnter': OTP_SEND_MESSAGES.enterOtp,
      'messages.otpIncorrect': OTP_VERIFY_MESSAGES.incorrect,
      'messages.otpNotFound': OTP_VERIFY_MESSAGES.notFound,
      'messages.otpVerifyFailed': OTP_VERIFY_MESSAGES.failed,
      'messages.otpVerified': OTP_VERIFY_MESSAGES.success,
      'messages.otpVerifyNetwork': OTP_VERIFY_MESSAGES.network,
      'messages.otpResendFailed': OTP_RESEND_MESSAGES.failed,
      'messages.otpResendNetwork': OTP_RESEND_MESSAGES.network,
      'messages.otpResendWait': OTP_RESEND_MESSAGES.wait(NaN).replace('NaN', '{{seconds}}'),
      'messages.sessionForcedLogout': SESSION_MESSAGES.forcedLogout,
      'messages.sessionSuperseded': SESSION_MESSAGES.superseded,
      'messages.sessionSupersededError': SESSION_MESSAGES.supersededError,
      'messages.sessionGuardFailed': SESSION_MESSAGES.guardFailed,
      'messages.loggedOut': SESSION_MESSAGES.loggedOut,
      'messages.serverCaptchaWrong': SERVER_MESSAGES.captchaWrong,
      'messages.serverBadCredentials': SERVER_MESSAGES.badCredentials,
      'messages.serverInactive': SERVER_MESSAGES.inactive,
      'messages.serverLocked_one': SERVER_MESSAGES.locked(1).replace('1', '{{count}}'),
      'messages.serverLocked_other': SERVER_MESSAGES.locked(7).replace('7', '{{count}}'),
      'messages.serverLoginOk': SERVER_MESSAGES.loginOk,
      'messages.serverOtpSent': SERVER_MESSAGES.otpSent('{{mobile}}'),
      'messages.serverOtpNoLogin': SERVER_MESSAGES.otpNoLogin,
      'messages.serverOtpResent': SERVER_MESSAGES.otpResent('{{mobile}}'),
      'messages.serverOtpResendWait': SERVER_MESSAGES.otpResendWait(NaN).replace('NaN', '{{seconds}}'),
      'messages.serverOtpInvalidated': SERVER_MESSAGES.otpInvalidated,
      'messages.serverOtpNotFound': SERVER_MESSAGES.otpNotFound,
      'messages.serverRateLimited': SERVER_MESSAGES.rateLimited(NaN).replace('NaN', '{{seconds}}'),
    };
    for (const [key, text] of Object.entries(catalogue)) expect(EN.get(key), key).toBe(text);
    // The spec's own words, for the ones the constants above might drift from.
    expect(EN.get('messages.captchaLocked')).toBe('Too many attempts. Try again in {{seconds}}s.');
    expect(EN.get('messages.sessionForcedLogout')).toBe('Session expired, Please login again');
    expect(EN.get('messages.otpResendWait')).toBe('Please wait {{seconds}}s');
  });

  it('the filter, feedback and device wordings the shared code produces', () => {
    const schema = { properties: { trainNo: { title: '{{title}}' } } };
    const f = (keyword: string, params: Record<string, unknown> = {}) => filterMessage({ keyword, params, field: 'trainNo' }, schema);
    expect(EN.get('messages.filterRequired')).toBe(f('required'));
    expect(EN.get('messages.filterInvalid')).toBe(f('pattern'));
    expect(EN.get('messages.filterDate')).toBe(f('format', { format: 'date' }));
    expect(EN.get('messages.filterEnum')).toBe(f('enum'));
    expect(EN.get('messages.filterNumber')).toBe(f('type', { type: 'number' }));
    expect(EN.get('messages.filterMinLength')).toBe(f('minLength', { limit: '{{limit}}' }));
    expect(EN.get('messages.filterMaxLength')).toBe(f('maxLength', { limit: '{{limit}}' }));
    expect(EN.get('messages.filterMinimum')).toBe(f('minimum', { limit: '{{limit}}' }));
    expect(EN.get('messages.filterMaximum')).toBe(f('maximum', { limit: '{{limit}}' }));
    const fb = validateFeedback({ category: 'x', rating: 0, message: 'ab' });
    expect(fb.rating).toBe(EN.get('messages.feedbackRating')?.replace('{{min}}', '1').replace('{{max}}', '5'));
    expect(fb.message).toMatch(new RegExp(`^${(EN.get('messages.feedbackTooShort') ?? '').replace(/[()]/g, '\\$&').replace(/\{\{\w+\}\}/g, '\\d+')}$`));
    for (const [status, label] of Object.entries(DEVICE_STATUS_LABELS)) expect(EN.get(`devices.status${status}`), status).toBe(label);
  });
});
