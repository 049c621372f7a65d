-- Feedback from the portal's users (feedbackform -> POST /api/dashboard-feedback).
CREATE TABLE feedback (
  feedback_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id text NOT NULL REFERENCES users,
  category text NOT NULL CHECK (category IN ('Report data', 'Performance', 'Login', 'Suggestion', 'Other')),
  rating int NOT NULL CHECK (rating BETWEEN 1 AND 5),
  message text NOT NULL CHECK (char_length(message) BETWEEN 10 AND 1000),
  user_agent text,
  submitted_at timestamptz NOT NULL
);
CREATE INDEX feedback_submitted ON feedback (submitted_at DESC);
