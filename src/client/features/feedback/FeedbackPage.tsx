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

/** /layout/uikit/feedbackform: category, star rating and message, checked here and on the server by the same rules. */
export function FeedbackPage() {
  const [draft, setDraft] = useState<Draft>(loadDraft);
  const [submitted, setSubmitted] = useState(false);
  const [sending, setSending] = useState(false);
  const [serverError, setServerError] = useState<{ message: string; fields: Record<string, string> } | null>(null);
  const [done, setDone] = useState<FeedbackResponse | null>(null);

  useEffect(() => saveDraft(draft), [draft]);

  const errors = validateFeedback(draft);
  const show = (f: keyof typeof errors): string | undefined => (submitted ? errors[f] : undefined) ?? serverError?.fields[f];
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
        <h1 className="fb-heading">Feedback</h1>
        <Message severity="success" text={done.message} className="fb-msg" />
        <p>
          Reference: <strong data-testid="feedback-reference">{done.id}</strong>
        </p>
        <Button
          type="button"
          label="Send more feedback"
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
      <h1 className="fb-heading">Feedback</h1>
      <p className="fb-intro">Tell the HHT team what works and what does not. Your user id is sent with the feedback.</p>
      {serverError ? <Message severity="error" text={serverError.message} className="fb-msg" /> : null}
      <form
        className="fb-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label htmlFor="fb-category">Category</label>
        <Dropdown
          inputId="fb-category"
          value={draft.category}
          options={FEEDBACK_CATEGORIES.map((c) => ({ value: c, label: c }))}
          placeholder="Choose a category"
          invalid={Boolean(show('category'))}
          onChange={(e) => update({ category: e.value as FeedbackCategory })}
          aria-describedby="fb-category-error"
        />
        <small id="fb-category-error" className="fb-error">{show('category') ?? ''}</small>

        <span id="fb-rating-label" className="fb-label">Rating</span>
        <Rating
          value={draft.rating ?? 0}
          cancel={false}
          stars={FEEDBACK_LIMITS.ratingMax}
          onChange={(e) => update({ rating: e.value ?? null })}
          aria-labelledby="fb-rating-label"
          aria-describedby="fb-rating-error"
        />
        <small id="fb-rating-error" className="fb-error">{show('rating') ?? ''}</small>

        <label htmlFor="fb-message">Message</label>
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
          {show('message') ?? `${length}/${FEEDBACK_LIMITS.messageMax} characters (at least ${FEEDBACK_LIMITS.messageMin})`}
        </small>

        <div className="fb-actions">
          <Button type="submit" label="Send feedback" icon="pi pi-send" loading={sending} disabled={sending} />
        </div>
      </form>
    </div>
  );
}
