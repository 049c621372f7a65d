/** Feedback form (spec: feedbackform, POST /api/dashboard-feedback): limits shared by the form and the server. */
export const FEEDBACK_CATEGORIES = ['Report data', 'Performance', 'Login', 'Suggestion', 'Other'] as const;
export type FeedbackCategory = (typeof FEEDBACK_CATEGORIES)[number];

export const FEEDBACK_LIMITS = {
  ratingMin: 1,
  ratingMax: 5,
  /** Characters of the message after trimming. */
  messageMin: 10,
  messageMax: 1000,
} as const;

export interface FeedbackRequest {
  category: FeedbackCategory;
  rating: number;
  message: string;
}

export interface FeedbackResponse {
  /** Confirmation reference shown to the user, e.g. FB-000042. */
  id: string;
  message: string;
  submittedAt: string;
}

export type FeedbackErrors = Partial<Record<keyof FeedbackRequest, string>>;

/** The same rules on both sides: returns a message per bad field (empty object when valid). */
export function validateFeedback(input: { category?: unknown; rating?: unknown; message?: unknown }): FeedbackErrors {
  const errors: FeedbackErrors = {};
  if (typeof input.category !== 'string' || !(FEEDBACK_CATEGORIES as readonly string[]).includes(input.category)) {
    errors.category = `Choose a category: ${FEEDBACK_CATEGORIES.join(', ')}`;
  }
  const r = input.rating;
  if (typeof r !== 'number' || !Number.isInteger(r) || r < FEEDBACK_LIMITS.ratingMin || r > FEEDBACK_LIMITS.ratingMax) {
    errors.rating = `Give a rating from ${FEEDBACK_LIMITS.ratingMin} to ${FEEDBACK_LIMITS.ratingMax} stars`;
  }
  const m = typeof input.message === 'string' ? input.message.trim() : '';
  if (m.length < FEEDBACK_LIMITS.messageMin) {
    errors.message = `Write at least ${FEEDBACK_LIMITS.messageMin} characters (${m.length} so far)`;
  } else if (m.length > FEEDBACK_LIMITS.messageMax) {
    errors.message = `Keep the message to ${FEEDBACK_LIMITS.messageMax} characters (${m.length} now)`;
  }
  return errors;
}

/** Confirmation reference of a stored feedback row. */
export function feedbackReference(id: number): string {
  return `FB-${String(id).padStart(6, '0')}`;
}
