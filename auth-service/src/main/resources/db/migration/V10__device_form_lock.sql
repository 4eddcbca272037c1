-- Wrong user codes lock the device form of a session for a while; they no longer end the session
-- (another site could end it by sending the browser to the page with wrong codes).
ALTER TABLE login_session ADD COLUMN user_code_locked_until timestamptz;
