import { useTranslation } from 'react-i18next';
import { localizeMessage } from '../../i18n/messages';
import { useEffect, useState } from 'react';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { InputTextarea } from 'primereact/inputtextarea';
import { Message } from 'primereact/message';
import { Rating } from 'primereact/rating';
import { FEEDBACK_CATEGORIES, FEEDBACK_LIMITS, validateFeedback, type FeedbackCategory, type FeedbackResponse } from '../../../shared/feedback';
import { failure, sendFeedback } from './api';
import { clearDraft, EMPTY, loadDraft, saveDraft, type Draft } from './draft';
import './feedback.css';

/** The categories are sent as they are (the server's list); people read them in the interface language. */
type CategoryKey = 'feedback.catReportData' | 'feedback.catPerformance' | 'feedback.catLogin' | 'feedback.catSuggestion' | 'feedback.catOther';
const CATEGORY_KEYS: Record<FeedbackCategory, CategoryKey> = {
  'Report data': 'feedback.catReportData',
  Performance: 'feedback.catPerformance',
  Login: 'feedback.catLogin',
  Suggestion: 'feedback.catSuggestion',
  Other: 'feedback.catOther',
};

/** /layout/uikit/feedbackform: category, star rating and message, checked here and on the server by the same rules. */
export function FeedbackPage() {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Draft>(loadDraft);
  const [submitted, setSubmitted] = useState(false);
  const [sending, setSending] = useState(false);
  const [serverError, setServerError] = useState<{ message: string; fields: Record<string, string> } | null>(null);
  const [done, setDone] = useState<FeedbackResponse | null>(null);

  useEffect(() => saveDraft(draft), [draft]);

  const errors = validateFeedback(draft);
  const show = (f: keyof typeof errors): string | undefined => {
    const text = (submitted ? errors[f] : undefined) ?? serverError?.fields[f];
    return text === undefined ? undefined : localizeMessage(text);
  };
  const length = draft.message.trim().length;
  const update = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setServerError(null);
  };

  const submit = async () => {
    setSubmitted(true);
    if (Object.keys(errors).length > 0 || !draft.category || draft.rating === null) return;
    setSending(true);
    setServerError(null);
    try {
      const res = await sendFeedback({ category: draft.category, rating: draft.rating, message: draft.message.trim() });
      clearDraft();
      setDone(res);
    } catch (err) {
      setServerError(await failure(err)); // the values stay in the form and in the draft
    } finally {
      setSending(false);
    }
  };

  if (done) {
    return (
      <div className="fb-page">
        <h1 className="fb-heading">{t('feedback.heading')}</h1>
        <Message severity="success" text={localizeMessage(done.message)} className="fb-msg" />
        <p>
          {t('feedback.reference')} <strong data-testid="feedback-reference">{done.id}</strong>
        </p>
        <Button
          type="button"
          label={t('feedback.sendMore')}
          icon="pi pi-plus"
          onClick={() => {
            setDone(null);
            setDraft(EMPTY);
            setSubmitted(false);
          }}
        />
      </div>
    );
  }

  return (
    <div className="fb-page">
      <h1 className="fb-heading">{t('feedback.heading')}</h1>
      <p className="fb-intro">{t('feedback.intro')}</p>
      {serverError ? <Message severity="error" text={localizeMessage(serverError.message)} className="fb-msg" /> : null}
      <form
        className="fb-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label htmlFor="fb-category">{t('feedback.category')}</label>
        <Dropdown
          inputId="fb-category"
          value={draft.category}
          options={FEEDBACK_CATEGORIES.map((c) => ({ value: c, label: t(CATEGORY_KEYS[c]) }))}
          placeholder={t('feedback.chooseCategory')}
          invalid={Boolean(show('category'))}
          onChange={(e) => update({ category: e.value as FeedbackCategory })}
          aria-describedby="fb-category-error"
        />
        <small id="fb-category-error" className="fb-error">{show('category') ?? ''}</small>

        <span id="fb-rating-label" className="fb-label">{t('feedback.rating')}</span>
        <Rating
          value={draft.rating ?? 0}
          cancel={false}
          stars={FEEDBACK_LIMITS.ratingMax}
          onChange={(e) => update({ rating: e.value ?? null })}
          aria-labelledby="fb-rating-label"
          aria-describedby="fb-rating-error"
        />
        <small id="fb-rating-error" className="fb-error">{show('rating') ?? ''}</small>

        <label htmlFor="fb-message">{t('feedback.message')}</label>
        <InputTextarea
          id="fb-message"
          value={draft.message}
          rows={6}
          autoResize
          invalid={Boolean(show('message'))}
          onChange={(e) => update({ message: e.target.value })}
          aria-describedby="fb-message-help"
        />
        <small id="fb-message-help" className={show('message') ? 'fb-error' : 'fb-help'}>
          {show('message') ?? t('feedback.counter', { length, max: FEEDBACK_LIMITS.messageMax, min: FEEDBACK_LIMITS.messageMin })}
        </small>

        <div className="fb-actions">
          <Button type="submit" label={t('feedback.send')} icon="pi pi-send" loading={sending} disabled={sending} />
        </div>
      </form>
    </div>
  );
}
