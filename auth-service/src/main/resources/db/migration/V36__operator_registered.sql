-- An application registered by one of the platform's operators acting as such (their own token,
-- or the deployment's initial access token for registration): trusted to hear prompt=none's answer
-- without a page (OpenID Connect Core §3.1.2.1), as a verified one is. Its owner's change of where
-- people are sent ends that trust, as it ends the verified mark.
ALTER TABLE application ADD COLUMN operator_registered boolean NOT NULL DEFAULT false;
