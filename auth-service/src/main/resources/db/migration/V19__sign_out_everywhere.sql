-- After a new password set with a recovery link, every token, login session and pending sign-in
-- of the person ends (TokenRepository.signOutEverywhere): found by person, not by scanning.
CREATE INDEX token_person_live ON token (person_id) WHERE revoked_at IS NULL;
CREATE INDEX login_session_person ON login_session (person_id);
CREATE INDEX pending_sign_in_person ON pending_sign_in (person_id);
