import { describe, expect, it } from 'vitest';
import { latestDue, nextDue, resolveFilters } from '../../src/server/mail/schedule';
import { loadMailSettings } from '../../src/server/mail/settings';
import { relativeChoice } from '../../src/client/features/subscriptions/dates';
import { isEmailAddress } from '../../src/shared/subscriptions';

const ist = (s: string): Date => new Date(`${s}+05:30`);

describe('subscription send times (India time)', () => {
  const daily = { frequency: 'daily' as const, weekday: null, time: '07:00' };
  // 2026-03-15 is a Sunday (ISO 7); Monday is ISO 1.
  const monday = { frequency: 'weekly' as const, weekday: 1, time: '06:30' };

  it('a daily time falls today when still ahead, else tomorrow; at the very minute it is the next day', () => {
    expect(nextDue(daily, ist('2026-03-15T06:59:59'))).toEqual(ist('2026-03-15T07:00:00'));
    expect(nextDue(daily, ist('2026-03-15T07:00:00'))).toEqual(ist('2026-03-16T07:00:00'));
    // Just after midnight UTC is 05:30 in India: still the same Indian day.
    expect(nextDue(daily, new Date('2026-03-15T00:10:00Z'))).toEqual(ist('2026-03-15T07:00:00'));
    // 23:45 IST is 18:15 UTC: the next 00:15 IST is the following Indian day.
    expect(nextDue({ ...daily, time: '00:15' }, ist('2026-03-15T23:45:00'))).toEqual(ist('2026-03-16T00:15:00'));
  });

  it('a weekly time falls on its weekday only', () => {
    expect(nextDue(monday, ist('2026-03-15T12:00:00'))).toEqual(ist('2026-03-16T06:30:00'));
    expect(nextDue(monday, ist('2026-03-16T06:30:00'))).toEqual(ist('2026-03-23T06:30:00'));
    expect(nextDue({ ...monday, weekday: 7 }, ist('2026-03-15T06:00:00'))).toEqual(ist('2026-03-15T06:30:00'));
  });

  it('after days without a sender, the latest due time is the one mailed', () => {
    expect(latestDue(daily, ist('2026-03-18T09:00:00'))).toEqual(ist('2026-03-18T07:00:00'));
    expect(latestDue(daily, ist('2026-03-18T07:00:00'))).toEqual(ist('2026-03-18T07:00:00'));
    expect(latestDue(daily, ist('2026-03-18T06:59:00'))).toEqual(ist('2026-03-17T07:00:00'));
    expect(latestDue(monday, ist('2026-03-29T10:00:00'))).toEqual(ist('2026-03-23T06:30:00'));
  });

  it('relative dates resolve on the Indian calendar day of the send', () => {
    const values = { start: '$today-7', end: '$today-1', day: '$today', fixed: '2026-01-02', train: '12951' };
    expect(resolveFilters(values, new Date('2026-03-15T20:00:00Z'))).toEqual({
      start: '2026-03-09', end: '2026-03-15', day: '2026-03-16', fixed: '2026-01-02', train: '12951',
    });
  });

  it('the dialog proposes the relative date a page date stands for', () => {
    expect(relativeChoice('2026-03-15', '2026-03-15')).toBe('$today');
    expect(relativeChoice('2026-03-14', '2026-03-15')).toBe('$today-1');
    expect(relativeChoice('2026-03-08', '2026-03-15')).toBe('$today-7');
    expect(relativeChoice('2026-03-01', '2026-03-15')).toBe('fixed');
  });
});

describe('mail settings and addresses', () => {
  it('reads the defaults and refuses bad values with a message naming the variable', () => {
    const problems: string[] = [];
    const s = loadMailSettings({}, 8080, problems);
    expect(problems).toEqual([]);
    expect(s).toMatchObject({ smtpUrl: undefined, maxBytes: 10 * 1024 * 1024, retryMinutes: [1, 5, 15], publicUrl: 'http://localhost:8080', pollMs: 30_000 });
    const bad: string[] = [];
    loadMailSettings({ HHT_SMTP_URL: 'mail.example.in', HHT_MAIL_MAX_MB: '0', HHT_MAIL_RETRY_MINUTES: '1,x', HHT_PUBLIC_URL: 'portal', HHT_MAIL_POLL_MS: '5' }, 8080, bad);
    expect(bad.map((p) => p.split(' ')[0])).toEqual(['HHT_SMTP_URL', 'HHT_MAIL_MAX_MB', 'HHT_MAIL_RETRY_MINUTES', 'HHT_PUBLIC_URL', 'HHT_MAIL_POLL_MS']);
    expect(loadMailSettings({ HHT_MAIL_MAX_MB: '0.5', HHT_MAIL_RETRY_MINUTES: '' }, 1, []).maxBytes).toBe(512 * 1024);
  });

  it('accepts an e-mail address and refuses what would break a mail header', () => {
    expect(isEmailAddress('amit.saxena@rail.gov.in')).toBe(true);
    for (const bad of ['amit', 'amit@', 'a b@rail.in', 'amit@rail', '<a@rail.in>', 'a@rail.in\r\nBcc: x@y.in', `${'a'.repeat(250)}@r.in`]) {
      expect(isEmailAddress(bad), bad).toBe(false);
    }
  });
});
