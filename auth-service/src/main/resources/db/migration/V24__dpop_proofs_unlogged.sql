-- The DPoP proofs seen (dpop_proof_used) are a replay cache of a minute and a few seconds: each
-- row is of use only within its proof's iat window. Unlogged, its INSERT commits without waiting
-- for the WAL to reach the disk, and there is one per DPoP call: the bench's dpop scenario went
-- from 0.22x to 0.29x of a bearer call through the gateway (bench/results, 2026-11-28). What a
-- crash of PostgreSQL loses is that minute of replay protection: a proof captured just before it
-- could be sent once more just after, within its iat window.
ALTER TABLE dpop_proof_used SET UNLOGGED;
