-- A person's export lists the events they sent, and their account's deletion credits them to no
-- one: both find them by creator, without a scan of every repository.
CREATE INDEX data_event_creator ON data_event (creator_id);
