// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { bootLanguage, currentLanguage, LANGUAGE_KEY, setLanguage, useTexts } from '../../src/client/i18n';
import { LanguageSwitch } from '../../src/client/i18n/LanguageSwitch';
import { localizeMessage } from '../../src/client/i18n/messages';
import { formatNumber } from '../../src/client/i18n/format';
import { api } from '../../src/client/lib/api';
import { LOGIN_MESSAGES, OTP_SEND_MESSAGES, SERVER_MESSAGES } from '../../src/shared/auth-contract';

function Heading() {
  const { t } = useTexts();
  return <h1>{t('auth.welcome')}</h1>;
}

beforeEach(async () => {
  localStorage.clear();
  await setLanguage('en');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the language switch', () => {
  it('is a named group whose pressed button is the current language; a click changes texts, <html lang> and storage', async () => {
    render(
      <>
        <LanguageSwitch />
        <Heading />
      </>,
    );
    expect(screen.getByRole('group', { name: 'Language / Language' })).toBeTruthy();
    const english = screen.getByRole('button', { name: 'English' });
    const hindi = screen.getByRole('button', { name: 'हिन्दी' });
    expect(english.getAttribute('aria-pressed')).toBe('true');
    expect(hindi.getAttribute('aria-pressed')).toBe('false');
    expect(hindi.getAttribute('lang')).toBe('hi');
    expect(screen.getByRole('heading').textContent).toBe('Welcome to IR-HHT');
    expect(document.documentElement.lang).toBe('en');

    fireEvent.click(hindi);
    await screen.findByText('IR-HHT में आपका स्वागत है');
    expect(hindi.getAttribute('aria-pressed')).toBe('true');
    expect(english.getAttribute('aria-pressed')).toBe('false');
    expect(document.documentElement.lang).toBe('hi');
    expect(localStorage.getItem(LANGUAGE_KEY)).toBe('hi');
    expect(screen.getByRole('group', { name: 'भाषा / Language' })).toBeTruthy();

    fireEvent.click(english);
    await screen.findByText('Welcome to IR-HHT');
    expect(document.documentElement.lang).toBe('en');
    expect(localStorage.getItem(LANGUAGE_KEY)).toBe('en');
  });

  it('compact: short visible labels, full names for assistive technology', () => {
    render(<LanguageSwitch compact />);
    expect(screen.getByRole('button', { name: 'हिन्दी' }).textContent).toContain('हि');
    expect(screen.getByRole('button', { name: 'English' }).textContent).toContain('EN');
  });

  it('the remembered language is loaded before the first render; a bad stored value means English', async () => {
    localStorage.setItem(LANGUAGE_KEY, 'hi');
    await setLanguage('en');
    localStorage.setItem(LANGUAGE_KEY, 'hi');
    await bootLanguage();
    expect(currentLanguage()).toBe('hi');
    expect(document.documentElement.lang).toBe('hi');
    await setLanguage('en');
    localStorage.setItem(LANGUAGE_KEY, 'fr');
    await bootLanguage();
    expect(currentLanguage()).toBe('en');
    expect(document.documentElement.lang).toBe('en');
  });
});

describe('messages compared in English, shown in the interface language', () => {
  it('are unchanged in English', () => {
    expect(localizeMessage(LOGIN_MESSAGES.unsolved)).toBe('Please solve the CAPTCHA.');
  });

  it('are translated in Hindi with their values, plural and all; unknown texts pass as they came', async () => {
    await setLanguage('hi');
    expect(localizeMessage(LOGIN_MESSAGES.unsolved)).toBe('कृपया कैप्चा हल करें।');
    expect(localizeMessage(LOGIN_MESSAGES.locked(27))).toBe('बहुत अधिक प्रयास। 27 सेकंड बाद पुनः प्रयास करें।');
    expect(localizeMessage(SERVER_MESSAGES.otpSent('98******21'))).toBe('OTP सफलतापूर्वक 98******21 पर भेजा गया');
    expect(localizeMessage(SERVER_MESSAGES.locked(1))).toContain('1 मिनट');
    expect(localizeMessage(SERVER_MESSAGES.locked(15))).toContain('15 मिनट');
    expect(localizeMessage(OTP_SEND_MESSAGES.enterOtp)).toBe('कृपया OTP दर्ज करें।');
    expect(localizeMessage('The server answered 500.')).toBe('सर्वर ने 500 उत्तर दिया।');
    expect(localizeMessage('Train No is required')).toBe('Train No आवश्यक है');
    expect(localizeMessage('Something nobody wrote down')).toBe('Something nobody wrote down');
  });
});

describe('numbers in the Indian format in both languages', () => {
  it('groups lakhs and crores with Latin digits', async () => {
    expect(formatNumber(1234567)).toBe('12,34,567');
    await setLanguage('hi');
    expect(formatNumber(1234567)).toBe('12,34,567');
    expect(formatNumber(123456789.5)).toBe('12,34,56,789.5');
  });
});

describe('the API client', () => {
  it('sends Accept-Language with the interface language on every call', async () => {
    const seen: (string | null)[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: Request) => {
        seen.push(input.headers.get('Accept-Language'));
        return new Response('{}', { status: 200, headers: { 'Content-Type': 'application/json' } });
      }),
    );
    await api.get(new URL('/api/meta/menu', location.href).href).json();
    await act(() => setLanguage('hi'));
    await api.post(new URL('/api/reports/x', location.href).href, { json: {} }).json();
    expect(seen).toEqual(['en', 'hi']);
  });
});
