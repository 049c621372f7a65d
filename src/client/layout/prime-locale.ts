import { addLocale, locale, localeOptions } from 'primereact/api';
import { currentLanguage, i18n, type Language } from '../i18n';

/**
 * PrimeReact's own words (the date picker's month and day names, the pager's and dialogs' labels for screen
 * readers, empty-list messages) in the interface language. English is PrimeReact's built-in 'en'.
 */
const HI_DAYS = ['रविवार', 'सोमवार', 'मंगलवार', 'बुधवार', 'गुरुवार', 'शुक्रवार', 'शनिवार'];
const HI_MONTHS = ['जनवरी', 'फ़रवरी', 'मार्च', 'अप्रैल', 'मई', 'जून', 'जुलाई', 'अगस्त', 'सितंबर', 'अक्टूबर', 'नवंबर', 'दिसंबर'];

let hindiAdded = false;

function addHindi(): void {
  if (hindiAdded) return;
  hindiAdded = true;
  const en = localeOptions('en') as Record<string, unknown> & { aria?: Record<string, string> };
  addLocale('hi', {
    ...en,
    dayNames: HI_DAYS,
    dayNamesShort: ['रवि', 'सोम', 'मंगल', 'बुध', 'गुरु', 'शुक्र', 'शनि'],
    dayNamesMin: ['र', 'सो', 'मं', 'बु', 'गु', 'शु', 'श'],
    monthNames: HI_MONTHS,
    monthNamesShort: HI_MONTHS,
    firstDayOfWeek: 0,
    today: 'आज',
    clear: 'साफ़ करें',
    choose: 'चुनें',
    cancel: 'रद्द करें',
    close: 'बंद करें',
    accept: 'हाँ',
    reject: 'नहीं',
    apply: 'लागू करें',
    chooseYear: 'वर्ष चुनें',
    chooseMonth: 'माह चुनें',
    chooseDate: 'तिथि चुनें',
    prevYear: 'पिछला वर्ष',
    nextYear: 'अगला वर्ष',
    prevMonth: 'पिछला माह',
    nextMonth: 'अगला माह',
    prevDecade: 'पिछला दशक',
    nextDecade: 'अगला दशक',
    weekHeader: 'सप्ताह',
    emptyMessage: 'कोई परिणाम नहीं मिला',
    emptyFilterMessage: 'कोई परिणाम नहीं मिला',
    aria: {
      ...(en.aria ?? {}),
      close: 'बंद करें',
      previous: 'पिछला',
      next: 'अगला',
      navigation: 'नेविगेशन',
      pageLabel: 'पृष्ठ {page}',
      firstPageLabel: 'पहला पृष्ठ',
      lastPageLabel: 'अंतिम पृष्ठ',
      nextPageLabel: 'अगला पृष्ठ',
      prevPageLabel: 'पिछला पृष्ठ',
      rowsPerPageLabel: 'प्रति पृष्ठ पंक्तियाँ',
      jumpToPageDropdownLabel: 'पृष्ठ चुनें',
      jumpToPageInputLabel: 'पृष्ठ संख्या',
      star: '1 सितारा',
      stars: '{star} सितारे',
      selectAll: 'सभी चुनें',
      unselectAll: 'सभी हटाएँ',
      trueLabel: 'हाँ',
      falseLabel: 'नहीं',
      nullLabel: 'चयनित नहीं',
    },
  });
}

export function applyPrimeLocale(lng: Language): void {
  if (lng === 'hi') addHindi();
  locale(lng);
}

// Before React re-renders for a new language (react-i18next listens to the same event, and renders later).
applyPrimeLocale(currentLanguage());
i18n.on('languageChanged', (lng) => applyPrimeLocale(lng === 'hi' ? 'hi' : 'en'));
