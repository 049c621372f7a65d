import type { FastifyInstance } from 'fastify';
import type { Db } from '../db';
import { HttpError } from '../plugins/errors';
import {
  FEEDBACK_CATEGORIES,
  FEEDBACK_LIMITS,
  feedbackReference,
  validateFeedback,
  type FeedbackRequest,
  type FeedbackResponse,
} from '../../shared/feedback';

/** POST /api/dashboard-feedback: stored with the user and time; 201 with a confirmation reference. */
export function feedbackRoutes(app: FastifyInstance, deps: { db: Db }): void {
  app.post<{ Body: FeedbackRequest }>(
    '/api/dashboard-feedback',
    {
      preValidation: app.authenticate,
      schema: {
        body: {
          type: 'object',
          required: ['category', 'rating', 'message'],
          additionalProperties: false,
          properties: {
            category: { type: 'string', enum: [...FEEDBACK_CATEGORIES] },
            rating: { type: 'integer', minimum: FEEDBACK_LIMITS.ratingMin, maximum: FEEDBACK_LIMITS.ratingMax },
            // Raw length allows surrounding blanks; the trimmed length is checked by validateFeedback.
            message: { type: 'string', minLength: FEEDBACK_LIMITS.messageMin, maxLength: FEEDBACK_LIMITS.messageMax + 200 },
          },
        },
      },
    },
    async (request, reply): Promise<FeedbackResponse> => {
      const user = request.sessionUser;
      if (!user) throw new HttpError(403, 'Session expired, Please login again');
      const errors = validateFeedback(request.body);
      const fields = Object.entries(errors).map(([field, reason]) => ({ field, reason }));
      if (fields.length > 0) throw new HttpError(400, fields.map((f) => f.reason).join('; '), fields);
      const at = app.clock.now().toISOString();
      const ua = request.headers['user-agent'];
      const { rows } = await deps.db.query<{ feedback_id: number }>(
        `INSERT INTO feedback (user_id, category, rating, message, user_agent, submitted_at)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING feedback_id`,
        [user.userId, request.body.category, request.body.rating, request.body.message.trim(), typeof ua === 'string' ? ua.slice(0, 300) : null, at],
      );
      const id = feedbackReference(Number(rows[0]?.feedback_id ?? 0));
      void reply.code(201);
      return { id, message: `Thank you. Your feedback is recorded with reference ${id}.`, submittedAt: at };
    },
  );
}
