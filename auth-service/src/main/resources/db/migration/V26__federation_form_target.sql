-- The origin where a sign-in that went through another provider may end (the client's redirect
-- URI's, checked when the attempt began): the pages on the way back let their forms lead there
-- (CSP form-action), or the browser blocks the last redirect to the client. Null: only here.
ALTER TABLE federation_attempt ADD COLUMN form_target text;
ALTER TABLE federation_pending ADD COLUMN form_target text;
