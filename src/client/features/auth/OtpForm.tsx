import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTexts } from '../../i18n';
import { localizeMessage } from '../../i18n/messages';
import {
  AUTH_LIMITS, OTP_RESEND_MESSAGES, OTP_SEND_MESSAGES, OTP_VERIFY_MESSAGES, VERIFY_CODES, toSrcDate,
} from '../../../shared/auth-contract';
import { api } from '../../lib/api';
import { encryptText } from '../../lib/payload-crypto';
import { useSession } from '../../lib/session';
import { NoticeLine, noClipboard, type Notice } from './messages';
import { TextInput, ThemedButton } from './controls';
import { useCountdown } from './useCountdown';

const record = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Step 2: OTP (sent automatically), Verify OTP, Resend OTP with its timer, Back to Login. */
export function OtpForm({ userId, onBack }: { userId: string; onBack: () => void }) {
  const { t } = useTexts();
  const navigate = useNavigate();
  const session = useSession();
  const [otp, setOtp] = useState('');
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);
  const [resendAt, setResendAt] = useState<number>(() => Date.now() + AUTH_LIMITS.resendInitialSeconds * 1000);
  const resendLeft = useCountdown(resendAt);

  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return; // once per OTP step, also under StrictMode
    sent.current = true;
    void (async () => {
      if (!userId) {
        setNotice({ severity: 'error', text: OTP_SEND_MESSAGES.noUser });
        return;
      }
      try {
        const r = record(
          await api
            .post('/api/loginOtpDetails', { json: { userId: await encryptText(userId), srcDate: toSrcDate(new Date()) } })
            .json<unknown>(),
        );
        const message = str(r.message);
        if (!message) setNotice({ severity: 'error', text: OTP_SEND_MESSAGES.failed });
        else if (message.startsWith(OTP_SEND_MESSAGES.sentPrefix)) setNotice({ severity: 'info', text: message });
        else if (message === OTP_SEND_MESSAGES.exists) setNotice({ severity: 'info', text: OTP_SEND_MESSAGES.enterOtp });
        else setNotice({ severity: 'error', text: message });
      } catch {
        setNotice({ severity: 'error', text: OTP_SEND_MESSAGES.failedRetry });
      }
    })();
  }, [userId]);

  const verify = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (busy) return;
    if (!otp) {
      setNotice({ severity: 'error', text: OTP_VERIFY_MESSAGES.empty });
      return;
    }
    setBusy(true);
    try {
      const r = record(
        await api
          .post('/api/VerifyOtp', { json: { userId: await encryptText(userId), otp: await encryptText(otp) } })
          .json<unknown>(),
      );
      const message = str(r.message);
      if (r.code === VERIFY_CODES.wrong) {
        setNotice({ severity: 'error', text: message || OTP_VERIFY_MESSAGES.incorrect });
      } else if (r.code === VERIFY_CODES.none) {
        setNotice({ severity: 'error', text: message || OTP_VERIFY_MESSAGES.notFound });
      } else if (typeof r.accessToken !== 'string' || !r.accessToken) {
        setNotice({ severity: 'error', text: message || OTP_VERIFY_MESSAGES.failed });
      } else {
        setNotice({ severity: 'success', text: message || OTP_VERIFY_MESSAGES.success });
        session.notify('success', message || OTP_VERIFY_MESSAGES.success);
        try {
          await session.completeLogin({ accessToken: r.accessToken, refreshToken: str(r.refreshToken) });
        } finally {
          navigate('/layout');
        }
        return;
      }
      setOtp('');
    } catch {
      setNotice({ severity: 'error', text: OTP_VERIFY_MESSAGES.network });
    } finally {
      setBusy(false);
    }
  };

  const resend = async (): Promise<void> => {
    if (resendLeft > 0 || busy) return;
    setBusy(true);
    try {
      const r = record(
        await api
          .post('/api/ResendOtp', { json: { userId: await encryptText(userId), srcDate: toSrcDate(new Date()) } })
          .json<unknown>(),
      );
      const message = str(r.message);
      if (message.includes('success')) {
        setNotice({ severity: 'info', text: message });
        setOtp('');
        setResendAt(Date.now() + AUTH_LIMITS.resendWaitSeconds * 1000);
      } else {
        setNotice({ severity: 'error', text: message || OTP_RESEND_MESSAGES.failed });
      }
    } catch {
      setNotice({ severity: 'error', text: OTP_RESEND_MESSAGES.network });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void verify(e)} noValidate aria-label={t('auth.otpForm')}>
      <p className="hht-otp-for">
        {t('auth.userId')} <strong>{userId}</strong>
      </p>
      <div className="hht-field">
        <label htmlFor="hht-otp">{t('auth.otp')}</label>
        <TextInput
          id="hht-otp"
          value={otp}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={AUTH_LIMITS.otpLength}
          onChange={(e) => setOtp(e.target.value.replace(/\D/g, '').slice(0, AUTH_LIMITS.otpLength))}
          {...noClipboard}
        />
      </div>
      <NoticeLine notice={notice} testId="otp-message" />
      <div className="hht-actions">
        <ThemedButton type="submit" label={t('auth.verifyOtp')} loading={busy} disabled={busy} />
        <ThemedButton
          type="button"
          label={resendLeft > 0 ? localizeMessage(OTP_RESEND_MESSAGES.wait(resendLeft)) : t('auth.resendOtp')}
          outlined
          disabled={resendLeft > 0 || busy}
          onClick={() => void resend()}
        />
        <ThemedButton type="button" label={t('auth.backToLogin')} outlined onClick={onBack} />
      </div>
    </form>
  );
}
