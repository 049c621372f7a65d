import { currentLanguage, i18n } from './index';

/**
 * The sign-in and session messages are compared in English by the code that handles them (the spec's catalogue,
 * and what the server sends, as the original backend does). They are translated only where they are shown: this
 * finds the English template a message was made from (values included) and gives the current language's text.
 * A message it does not know (a new server text) is shown as it came. The English templates arrive with Hindi
 * (i18n/hi/login.ts): English needs none of this, and the login's first load stays small.
 */
interface Matcher {
  key: string;
  re: RegExp;
  names: string[];
  /** Characters of the template outside its values. */
  literal: number;
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function buildMatchers(catalogue: Record<string, unknown>): Matcher[] {
  const out: Matcher[] = [];
  for (const [key, template] of Object.entries(catalogue)) {
    if (typeof template !== 'string') continue;
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
    out.push({ key: key.replace(/_(one|other)$/, ''), re: new RegExp(`^${pattern}$`), names, literal });
  }
  // The most specific template first: 'The server answered {{status}}.' before 'The server answered {{status}}'.
  return out.sort((a, b) => b.literal - a.literal);
}

let built: Matcher[] | null = null;

function matchers(): Matcher[] {
  if (built) return built;
  const catalogue: unknown = i18n.getResourceBundle('en', 'translation')?.messages;
  if (typeof catalogue !== 'object' || catalogue === null) return [];
  built = buildMatchers(catalogue as Record<string, unknown>);
  return built;
}

/** The message in the current language (unchanged in English or when it is not one of ours). */
export function localizeMessage(text: string): string {
  if (currentLanguage() === 'en') return text;
  for (const m of matchers()) {
    const found = m.re.exec(text);
    if (!found) continue;
    const values: Record<string, string | number> = {};
    m.names.forEach((name, i) => {
      const v = found[i + 1] ?? '';
      values[name] = name === 'count' ? Number(v) : v;
    });
    // The key is one of the catalogue's keys (checked by the unit tests); i18next's typed keys cannot follow a string.
    return i18n.t(`messages.${m.key}` as 'messages.loginError', values);
  }
  return text;
}
