-- The refresh token that a rotation gave, so that a retry of a refresh whose answer was lost (within the grace time)
-- can tell the lost token from one that has since been used.
ALTER TABLE auth_refresh_tokens ADD COLUMN replaced_by text;
