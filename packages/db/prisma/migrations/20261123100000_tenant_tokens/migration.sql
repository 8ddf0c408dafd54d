-- Tenant tokens get ids (their JWT jti) so they can be listed and revoked; tenants can be suspended.
-- docs/security.md "Tenant credentials and firewall tokens". Tokens signed before this migration carry no
-- jti and are refused from now on (401 token_revoked): mint new ones.

-- AlterTable
ALTER TABLE "tenants" ADD COLUMN "suspended_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "tenant_tokens" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "name" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tenant_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "tenant_tokens_tenant_id_created_id_idx" ON "tenant_tokens"("tenant_id", "created" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "tenant_tokens" ADD CONSTRAINT "tenant_tokens_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
