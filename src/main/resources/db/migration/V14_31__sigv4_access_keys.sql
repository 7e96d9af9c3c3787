-- A team's API token may carry an access key for SigV4 (the SageMaker-compatible endpoint). The key id is public
-- and unique; the secret access key must be used again to check signatures, so it is kept encrypted (AES-GCM under
-- spillover.webhooks.secret-key, whose id is stored beside it), as hooks' signing secrets are, never as a hash.
ALTER TABLE api_tokens
    ADD COLUMN access_key_id     text UNIQUE,
    ADD COLUMN access_key_secret bytea,
    ADD COLUMN access_key_sealed_under text,
    ADD CONSTRAINT api_tokens_access_key_complete CHECK ((access_key_id IS NULL) = (access_key_secret IS NULL)
        AND (access_key_id IS NULL) = (access_key_sealed_under IS NULL)),
    ADD CONSTRAINT api_tokens_access_key_of_a_team CHECK (access_key_id IS NULL OR team IS NOT NULL);
