import { useTexts } from '../../i18n';
import { useCallback, useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { AUTH_LIMITS, LOGIN_CODES, LOGIN_MESSAGES, type CaptchaResponse } from '../../../shared/auth-contract';
import { api, errorMessage, HTTPError } from '../../lib/api';
import { encryptText } from '../../lib/payload-crypto';
import { NoticeLine, noClipboard, type Notice } from './messages';
import { TextInput, ThemedButton } from './controls';
import { useCountdown } from './useCountdown';

function parseCaptcha(v: unknown): CaptchaResponse | null {
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  return typeof o.captchaId === 'string' && typeof o.imageDataUrl === 'string' && o.imageDataUrl.startsWith('data:image/')
    ? { captchaId: o.captchaId, imageDataUrl: o.imageDataUrl }
    : null;
}

/** Username and password alike: required, upper case, length-capped, no clipboard (spec section 5). */
function credentialField(set: (value: string) => void) {
  return {
    maxLength: AUTH_LIMITS.credentialMaxLength,
    required: true,
    'aria-required': true,
    onChange: (e: ChangeEvent<HTMLInputElement>) => set(e.target.value.toUpperCase().slice(0, AUTH_LIMITS.credentialMaxLength)),
    ...noClipboard,
  } as const;
}

/**
 * The first captcha is asked for as soon as this module runs (with the entry chunk, before React's first render): its
 * image is the login screen's largest paint, and waiting for the form's mount effect cost a render on slow phones.
 * It is taken once; every later captcha (Refresh, after a failure, a new form) is fetched when needed.
 */
let firstCaptcha: Promise<unknown> | null =
  typeof window !== 'undefined' && ['/', '/login'].includes(window.location.pathname) ? api.get('/api/captcha').json<unknown>() : null;
firstCaptcha?.catch(() => undefined); // a failure is reported by the form when it takes the answer

function fetchCaptcha(): Promise<unknown> {
  const early = firstCaptcha;
  firstCaptcha = null;
  return early ?? api.get('/api/captcha').json<unknown>();
}

/** Step 1: username, password, captcha (spec sections 2, 4, 5 and 8). Calls onPassed(userId) when loginFlag is true. */
export function LoginForm({ onPassed }: { onPassed: (userId: string) => void }) {
  const { t } = useTexts();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [answer, setAnswer] = useState('');
  const [captcha, setCaptcha] = useState<CaptchaResponse | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);
  const failures = useRef(0);
  const [lockUntil, setLockUntil] = useState<number | null>(null);
  const lockLeft = useCountdown(lockUntil);
  const locked = lockUntil !== null && lockLeft > 0;

  const loadCaptcha = useCallback(async (): Promise<void> => {
    setAnswer('');
    try {
      const c = parseCaptcha(await fetchCaptcha());
      if (!c) throw new Error('bad captcha');
      setCaptcha(c);
    } catch {
      setCaptcha(null);
      setNotice({ severity: 'error', text: LOGIN_MESSAGES.captchaLoadFailed });
    }
  }, []);

  const loaded = useRef(false);
  useEffect(() => {
    if (loaded.current) return; // once per mount, also under StrictMode
    loaded.current = true;
    void loadCaptcha();
  }, [loadCaptcha]);

  // The lock ends: counter reset, new captcha.
  useEffect(() => {
    if (lockUntil !== null && lockLeft === 0) {
      setLockUntil(null);
      failures.current = 0;
      setNotice(null);
      void loadCaptcha();
    }
  }, [lockUntil, lockLeft, loadCaptcha]);

  const formValid = username.length > 0 && password.length > 0;
  const canSubmit = formValid && answer.trim().length > 0 && !locked && !busy;

  const failed = (text: string, captchaWrong: boolean): void => {
    setUsername('');
    setPassword('');
    setShowPassword(false);
    setAnswer('');
    if (captchaWrong) {
      failures.current += 1;
      if (failures.current >= AUTH_LIMITS.captchaFailuresBeforeLock) {
        setCaptcha(null);
        setLockUntil(Date.now() + AUTH_LIMITS.captchaLockSeconds * 1000);
        setNotice(null);
        return;
      }
    }
    setNotice({ severity: 'error', text });
    void loadCaptcha();
  };

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (locked) return;
    if (!captcha || answer.trim().length === 0) {
      setNotice({ severity: 'error', text: LOGIN_MESSAGES.unsolved });
      return;
    }
    if (!formValid || busy) return;
    setBusy(true);
    setNotice(null);
    try {
      const body = await api
        .post('/api/loginInfo', {
          json: {
            userId: await encryptText(username),
            pwd: await encryptText(password),
            captchaId: captcha.captchaId,
            captchaAnswer: answer.trim(),
          },
        })
        .json<unknown>();
      const r = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
      const code = typeof r.code === 'number' ? r.code : undefined;
      const message = typeof r.message === 'string' ? r.message : '';
      if (r.loginFlag === true && (code === undefined || code >= 0)) {
        failures.current = 0;
        onPassed(username);
        return;
      }
      if ((code !== undefined && code < 0) || r.loginFlag === false) {
        failed(message || LOGIN_MESSAGES.error, code === LOGIN_CODES.captcha || /captcha/i.test(message));
        return;
      }
      setNotice({ severity: 'error', text: LOGIN_MESSAGES.invalidResponse });
    } catch (err) {
      const serverMessage = err instanceof HTTPError && err.response.status === 429 ? await errorMessage(err) : null;
      setNotice({ severity: 'error', text: serverMessage ?? LOGIN_MESSAGES.error });
      void loadCaptcha();
    } finally {
      setBusy(false);
    }
  };

  const shown: Notice | null = locked ? { severity: 'error', text: LOGIN_MESSAGES.locked(lockLeft) } : notice;

  return (
    <form
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label={t('auth.loginForm')}
      onKeyDown={(e) => {
        // Enter in a field with the Login button disabled still says what is missing (buttons keep their own Enter).
        if (e.key === 'Enter' && e.target instanceof HTMLInputElement && !canSubmit && !locked && (!captcha || answer.trim().length === 0)) {
          e.preventDefault();
          setNotice({ severity: 'error', text: LOGIN_MESSAGES.unsolved });
        }
      }}
    >
      <div className="hht-field">
        <label htmlFor="hht-username">{t('auth.username')}</label>
        <TextInput
          id="hht-username"
          value={username}
          autoComplete="username"
          {...credentialField(setUsername)}
        />
      </div>
      <div className="hht-field">
        <label htmlFor="hht-password">{t('auth.password')}</label>
        {/* Our own toggle: PrimeReact's replaces its icon on every click, so keyboard focus was lost. */}
        <div className="hht-password">
          <TextInput
            id="hht-password"
            type={showPassword ? 'text' : 'password'}
            value={password}
            autoComplete="current-password"
            {...credentialField(setPassword)}
          />
          <button
            type="button"
            className="hht-password-toggle"
            aria-label={showPassword ? t('auth.hidePassword') : t('auth.showPassword')}
            aria-pressed={showPassword}
            onClick={() => setShowPassword((v) => !v)}
          >
            <i className={showPassword ? 'pi pi-eye-slash' : 'pi pi-eye'} aria-hidden="true" />
          </button>
        </div>
      </div>
      <div className="hht-field">
        <span id="hht-captcha-label">{t('auth.captcha')}</span>
        <div className="hht-captcha">
          {captcha ? (
            <img src={captcha.imageDataUrl} alt={t('auth.captchaImage')} aria-describedby="hht-captcha-label" />
          ) : (
            <div className="hht-captcha-placeholder" aria-hidden="true" />
          )}
          <ThemedButton type="button" label={t('auth.refresh')} icon="pi pi-refresh" outlined disabled={locked || busy} onClick={() => void loadCaptcha()} />
        </div>
      </div>
      <div className="hht-field">
        <label htmlFor="hht-captcha-answer">{t('auth.captchaAnswer')}</label>
        <TextInput
          id="hht-captcha-answer"
          value={answer}
          maxLength={AUTH_LIMITS.captchaAnswerMaxLength}
          autoComplete="off"
          disabled={locked}
          onChange={(e) => setAnswer(e.target.value.slice(0, AUTH_LIMITS.captchaAnswerMaxLength))}
          {...noClipboard}
        />
      </div>
      <NoticeLine notice={shown} testId="login-message" />
      <ThemedButton type="submit" label={t('auth.login')} disabled={!canSubmit} loading={busy} />
    </form>
  );
}
