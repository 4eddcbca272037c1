-- The standard profile claims of OpenID Connect Core §5.4 that a person may give of themselves.
-- Each is optional (null: not given). website is public; the others only the person themself
-- sees, and the applications they allow the profile scope.
ALTER TABLE person
    ADD COLUMN given_name  text,
    ADD COLUMN family_name text,
    ADD COLUMN website     text,   -- an absolute http(s) URL
    ADD COLUMN locale      text,   -- a BCP 47 language tag, as java.util.Locale writes it ("en-GB")
    ADD COLUMN zoneinfo    text;   -- a time zone of the tz database ("Europe/Paris")
