import { useState } from 'react';
import { useTexts } from '../../i18n';
import { LanguageSwitch } from '../../i18n/LanguageSwitch';
import tracks from './assets/bg-tracks.svg';
import express from './assets/bg-express.svg';
import { LoginForm } from './LoginForm';
import { OtpForm } from './OtpForm';
import './login.css';

const BACKGROUNDS = [
  { name: 'tracks', url: tracks },
  { name: 'express', url: express },
] as const;

/** Login screen (spec section 2): heading, one of two backgrounds at random, step 1 then step 2. */
export function LoginPage() {
  const [background] = useState(() => BACKGROUNDS[Math.random() < 0.5 ? 0 : 1] ?? BACKGROUNDS[0]);
  // The OTP step exists only while userId is set; Back to Login clears it (and with it all OTP state).
  const [otpUser, setOtpUser] = useState<string | null>(null);
  const [loginKey, setLoginKey] = useState(0);
  const { t } = useTexts();

  return (
    <main className="hht-login" data-background={background.name} style={{ backgroundImage: `url("${background.url}")` }}>
      <section className="hht-login-card">
        <LanguageSwitch className="hht-login-language" />
        <h1>{t('auth.welcome')}</h1>
        {otpUser === null ? (
          <LoginForm key={loginKey} onPassed={setOtpUser} />
        ) : (
          <OtpForm
            userId={otpUser}
            onBack={() => {
              setOtpUser(null);
              setLoginKey((k) => k + 1);
            }}
          />
        )}
      </section>
    </main>
  );
}
