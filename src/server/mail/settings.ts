/** E-mail subscription settings, read from the environment with the rest of the configuration (config.ts). */
export interface MailSettings {
  /** SMTP server, e.g. smtps://user:pass@mail.example.in:465 (HHT_SMTP_URL); unset = subscriptions are off. */
  smtpUrl: string | undefined;
  /** Sender of the mails (HHT_MAIL_FROM). */
  from: string;
  /** Largest attachment, bytes (HHT_MAIL_MAX_MB, default 10); a larger file is replaced by a link to the report. */
  maxBytes: number;
  /** Waits before each retry of a failed send, minutes (HHT_MAIL_RETRY_MINUTES, default 1,5,15); then it is failed. */
  retryMinutes: number[];
  /** The portal's address as officers open it, for links in mails (HHT_PUBLIC_URL; default http://localhost:PORT). */
  publicUrl: string;
  /** How often the sender looks for due sends, ms (HHT_MAIL_POLL_MS, default 30000; 0 = only when told, for tests). */
  pollMs: number;
}

export function loadMailSettings(env: NodeJS.ProcessEnv, port: number, problems: string[]): MailSettings {
  const smtpUrl = env.HHT_SMTP_URL?.trim() || undefined;
  if (smtpUrl && !/^smtps?:\/\/[^\s]+$/.test(smtpUrl)) problems.push(`HHT_SMTP_URL must be an smtp:// or smtps:// URL, got "${smtpUrl}"`);

  const from = env.HHT_MAIL_FROM?.trim() || 'IR-HHT Portal <no-reply@localhost>';
  if (/[\r\n]/.test(from)) problems.push('HHT_MAIL_FROM must be one line');

  const maxText = env.HHT_MAIL_MAX_MB?.trim() || '10';
  const maxMb = Number(maxText);
  if (!/^\d+(\.\d+)?$/.test(maxText) || !(maxMb > 0) || maxMb > 1024) problems.push(`HHT_MAIL_MAX_MB must be a number of megabytes above 0 and at most 1024, got "${maxText}"`);

  const retryText = env.HHT_MAIL_RETRY_MINUTES?.trim() ?? '1,5,15';
  const retryMinutes = retryText === '' ? [] : retryText.split(',').map((s) => Number(s.trim()));
  if (retryMinutes.some((m) => !Number.isFinite(m) || m <= 0 || m > 1440)) {
    problems.push(`HHT_MAIL_RETRY_MINUTES must be minutes above 0 and at most 1440, comma-separated (e.g. 1,5,15), got "${retryText}"`);
  }

  const publicUrl = (env.HHT_PUBLIC_URL?.trim() || `http://localhost:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^\s/]+/.test(publicUrl)) problems.push(`HHT_PUBLIC_URL must be an http:// or https:// address, got "${publicUrl}"`);

  const pollText = env.HHT_MAIL_POLL_MS?.trim() || '30000';
  const pollMs = Number(pollText);
  if (!/^\d+$/.test(pollText) || (pollMs !== 0 && pollMs < 1000) || pollMs > 3_600_000) problems.push(`HHT_MAIL_POLL_MS must be 0 or 1000..3600000, got "${pollText}"`);

  return { smtpUrl, from, maxBytes: Math.round(maxMb * 1024 * 1024), retryMinutes, publicUrl, pollMs };
}
