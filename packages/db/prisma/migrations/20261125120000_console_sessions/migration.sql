-- Console sessions (docs/console.md "Sign-in and access"): the admin token or a tenant token is exchanged once
-- for a random session secret held in an HttpOnly cookie; only its SHA-256 is stored. A tenant session also
-- holds two credentials minted for it alone, encrypted with SECRETS_KEY and revoked at sign-out: a tenant token
-- (the admin routes) and an org API key with the console's scopes (the public-API proxy). Both expire with the
-- session's absolute lifetime.
CREATE TABLE "console_sessions" (
    "id" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "tenant_id" TEXT,
    "signin_token_id" TEXT,
    "session_token_id" TEXT,
    "tenant_token_ciphertext" TEXT,
    "api_key_id" TEXT,
    "api_key_ciphertext" TEXT,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "console_sessions_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "console_sessions_secret_hash_key" ON "console_sessions"("secret_hash");
CREATE INDEX "console_sessions_tenant_id_idx" ON "console_sessions"("tenant_id");
ALTER TABLE "console_sessions" ADD CONSTRAINT "console_sessions_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
