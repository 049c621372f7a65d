-- Every server process keeps the sessions it has checked in memory (src/server/auth/session-cache.ts). A change to
-- a session (logout, superseded by a new sign-in, refresh-token reuse) or to a user (deactivated, profile edited)
-- is announced on channel hht_auth when its transaction commits, so every process drops what it held at once:
-- 's:<session id>', 'u:<user id>', or '*' (everything, after a TRUNCATE). A trigger rather than the application,
-- so a change made by hand in SQL takes effect too.
CREATE FUNCTION hht_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('hht_auth', '*');
  ELSIF TG_TABLE_NAME = 'auth_sessions' THEN
    PERFORM pg_notify('hht_auth', 's:' || OLD.session_id);
  ELSE
    PERFORM pg_notify('hht_auth', 'u:' || OLD.user_id);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER auth_sessions_changed AFTER UPDATE OR DELETE ON auth_sessions
  FOR EACH ROW EXECUTE FUNCTION hht_auth_changed();
CREATE TRIGGER auth_sessions_truncated AFTER TRUNCATE ON auth_sessions
  FOR EACH STATEMENT EXECUTE FUNCTION hht_auth_changed();
CREATE TRIGGER users_changed AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION hht_auth_changed();
CREATE TRIGGER users_truncated AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION hht_auth_changed();
