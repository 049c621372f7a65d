/** The words of a subscription's mail and of the unsubscribe pages, in English and Hindi. */
import type { Lang } from '../../shared/definitions/hindi';
import { formatDate } from '../../shared/column-types';

export interface MailWords {
  subject(title: string, date: string): string;
  intro(title: string, frequency: 'daily' | 'weekly'): string;
  filters(list: string): string;
  noFilter: string;
  attached(rows: number, file: string): string;
  tooLarge(maxSize: string, link: string): string;
  manage(url: string): string;
  unsubscribe(url: string): string;
}

const rowsText = (n: number): string => n.toLocaleString('en-IN');

const WORDS: Record<Lang, MailWords> = {
  en: {
    subject: (title, date) => `IR-HHT: ${title}, ${formatDate(date)}`,
    intro: (title, frequency) => `Your ${frequency} e-mail of "${title}" from the IR-HHT Portal.`,
    filters: (list) => `Filters: ${list}`,
    noFilter: 'none',
    attached: (rows, file) => `${rowsText(rows)} rows, attached as ${file}.`,
    tooLarge: (maxSize, link) =>
      `The file is larger than the ${maxSize} this portal sends by e-mail. Open the report with the same filters in the portal (sign-in needed) and export it there:\n${link}`,
    manage: (url) => `Your subscriptions and their delivery history: ${url}`,
    unsubscribe: (url) => `Stop these e-mails: ${url}`,
  },
  hi: {
    subject: (title, date) => `IR-HHT: ${title}, ${formatDate(date)}`,
    intro: (title, frequency) => `IR-HHT पोर्टल से "${title}" का आपका ${frequency === 'daily' ? 'दैनिक' : 'साप्ताहिक'} ई-मेल।`,
    filters: (list) => `फ़िल्टर: ${list}`,
    noFilter: 'कोई नहीं',
    attached: (rows, file) => `${rowsText(rows)} पंक्तियाँ, संलग्न फ़ाइल ${file}।`,
    tooLarge: (maxSize, link) =>
      `फ़ाइल ${maxSize} से बड़ी है, जो यह पोर्टल ई-मेल से भेजता है। उन्हीं फ़िल्टरों के साथ रिपोर्ट पोर्टल में खोलें (साइन-इन आवश्यक) और वहीं निर्यात करें:\n${link}`,
    manage: (url) => `आपकी सदस्यताएँ और उनका डिलीवरी इतिहास: ${url}`,
    unsubscribe: (url) => `ये ई-मेल बंद करें: ${url}`,
  },
};

export const mailWords = (lang: Lang): MailWords => WORDS[lang];

/** The unsubscribe pages: both languages on one page, as a mail may be opened by anyone on any device. */
export const UNSUBSCRIBE_PAGE = {
  confirm: {
    en: { title: 'Stop this e-mail?', body: (title: string) => `You will no longer receive "${title}" by e-mail.`, button: 'Unsubscribe' },
    hi: { title: 'यह ई-मेल बंद करें?', body: (title: string) => `आपको "${title}" अब ई-मेल से नहीं मिलेगा।`, button: 'सदस्यता समाप्त करें' },
  },
  done: {
    en: { title: 'Unsubscribed', body: (title: string) => `You will no longer receive "${title}" by e-mail. You can subscribe again from the report in the portal.` },
    hi: { title: 'सदस्यता समाप्त', body: (title: string) => `आपको "${title}" अब ई-मेल से नहीं मिलेगा। आप पोर्टल में रिपोर्ट से फिर सदस्यता ले सकते हैं।` },
  },
  invalid: {
    en: { title: 'Link not valid', body: 'This unsubscribe link is not valid, or the subscription was already deleted.' },
    hi: { title: 'लिंक मान्य नहीं', body: 'यह सदस्यता समाप्ति लिंक मान्य नहीं है, या सदस्यता पहले ही हटाई जा चुकी है।' },
  },
} as const;
