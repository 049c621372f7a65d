import { en } from './en';
import { currentLanguage, i18n } from './index';

/**
 * The sign-in and session messages are compared in English by the code that handles them (the spec's catalogue,
 * and what the server sends, as the original backend does). They are translated only where they are shown: this
 * finds the English template a message was made from (values included) and gives the current language's text.
 * A message it does not know (a new server text) is shown as it came.
 */
interface Matcher {
  key: string;
  re: RegExp;
  names: string[];
  /** Characters of the template outside its values. */
  literal: number;
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const matchers: Matcher[] = Object.entries(en.messages).map(([key, template]) => {
  const names: string[] = [];
  const pattern = template
    .split(/\{\{(\w+)\}\}/)
    .map((part, i) => {
      if (i % 2 === 0) return escapeRe(part);
      names.push(part);
      return part === 'count' ? '(\\d+)' : '(.+?)';
    })
    .join('');
  const literal = template.replace(/\{\{\w+\}\}/g, '').length;
  return { key: key.replace(/_(one|other)$/, ''), re: new RegExp(`^${pattern}$`), names, literal };
})
  // The most specific template first: 'The server answered {{status}}.' before 'The server answered {{status}}'.
  .sort((a, b) => b.literal - a.literal);

/** The message in the current language (unchanged in English or when it is not one of ours). */
export function localizeMessage(text: string): string {
  if (currentLanguage() === 'en') return text;
  for (const m of matchers) {
    const found = m.re.exec(text);
    if (!found) continue;
    const values: Record<string, string | number> = {};
    m.names.forEach((name, i) => {
      const v = found[i + 1] ?? '';
      values[name] = name === 'count' ? Number(v) : v;
    });
    // The key is one of en.messages' keys (checked by the type of en); i18next's typed keys cannot follow a string.
    return i18n.t(`messages.${m.key}` as 'messages.loginError', values);
  }
  return text;
}
