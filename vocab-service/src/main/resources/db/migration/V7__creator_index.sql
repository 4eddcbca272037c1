-- A person's export lists what they created, and their account's deletion credits it to no one:
-- both find it by creator, without a scan of every vocabulary.
CREATE INDEX scheme_creator ON scheme (creator_id);
CREATE INDEX concept_creator ON concept (creator_id);
