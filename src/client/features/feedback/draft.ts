import { FEEDBACK_CATEGORIES, type FeedbackCategory } from '../../../shared/feedback';

export interface Draft {
  category: FeedbackCategory | null;
  rating: number | null;
  message: string;
}

export const DRAFT_KEY = 'HHT_FEEDBACK_DRAFT';
export const EMPTY: Draft = { category: null, rating: null, message: '' };

/** The draft kept in session storage (so a reload or a failed submit loses nothing); bad content is ignored. */
export function loadDraft(): Draft {
  try {
    const raw = sessionStorage.getItem(DRAFT_KEY);
    if (!raw) return EMPTY;
    const v = JSON.parse(raw) as Partial<Record<keyof Draft, unknown>>;
    return {
      category: typeof v.category === 'string' && (FEEDBACK_CATEGORIES as readonly string[]).includes(v.category) ? (v.category as FeedbackCategory) : null,
      rating: typeof v.rating === 'number' && Number.isInteger(v.rating) && v.rating >= 1 && v.rating <= 5 ? v.rating : null,
      message: typeof v.message === 'string' ? v.message.slice(0, 2000) : '',
    };
  } catch {
    return EMPTY;
  }
}

export function saveDraft(d: Draft): void {
  try {
    if (!d.category && !d.rating && !d.message) sessionStorage.removeItem(DRAFT_KEY);
    else sessionStorage.setItem(DRAFT_KEY, JSON.stringify(d));
  } catch {
    /* storage full or blocked: the form still holds the values */
  }
}

export function clearDraft(): void {
  try {
    sessionStorage.removeItem(DRAFT_KEY);
  } catch {
    /* ignore */
  }
}
