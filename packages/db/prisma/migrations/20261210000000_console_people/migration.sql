-- The console's people: users of a tenant with a role, one-time invites, browser sessions (tenant and
-- operator), and per-tenant single sign-on through OpenID Connect with its sign-ins in progress.
-- CreateEnum
CREATE TYPE "ConsoleRole" AS ENUM ('owner', 'developer', 'viewer');

-- CreateTable
CREATE TABLE "console_users" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "role" "ConsoleRole" NOT NULL,
    "password_hash" TEXT,
    "oidc_issuer" TEXT,
    "oidc_subject" TEXT,
    "failed_sign_ins" INTEGER NOT NULL DEFAULT 0,
    "locked_until" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "console_users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "console_invites" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "role" "ConsoleRole" NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "accepted_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "console_invites_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "console_sessions" (
    "id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "user_id" UUID,
    "token_hash" TEXT NOT NULL,
    "csrf_token" TEXT NOT NULL,
    "ip" TEXT,
    "user_agent" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "console_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "console_oidc_configs" (
    "tenant_id" UUID NOT NULL,
    "issuer" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "client_secret" TEXT NOT NULL,
    "default_role" "ConsoleRole",
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "console_oidc_configs_pkey" PRIMARY KEY ("tenant_id")
);

-- CreateTable
CREATE TABLE "console_oidc_states" (
    "state" TEXT NOT NULL,
    "tenant_id" UUID NOT NULL,
    "nonce" TEXT NOT NULL,
    "code_verifier" TEXT NOT NULL,
    "redirect_uri" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "console_oidc_states_pkey" PRIMARY KEY ("state")
);

-- CreateIndex
CREATE UNIQUE INDEX "console_users_email_key" ON "console_users"("email");

-- CreateIndex
CREATE INDEX "console_users_tenant_id_idx" ON "console_users"("tenant_id");

-- CreateIndex
CREATE UNIQUE INDEX "console_users_oidc_issuer_oidc_subject_key" ON "console_users"("oidc_issuer", "oidc_subject");

-- CreateIndex
CREATE UNIQUE INDEX "console_invites_token_hash_key" ON "console_invites"("token_hash");

-- CreateIndex
CREATE INDEX "console_invites_user_id_idx" ON "console_invites"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "console_sessions_token_hash_key" ON "console_sessions"("token_hash");

-- CreateIndex
CREATE INDEX "console_sessions_user_id_idx" ON "console_sessions"("user_id");

-- CreateIndex
CREATE INDEX "console_sessions_expires_at_idx" ON "console_sessions"("expires_at");

-- CreateIndex
CREATE INDEX "console_oidc_states_expires_at_idx" ON "console_oidc_states"("expires_at");

-- AddForeignKey
ALTER TABLE "console_users" ADD CONSTRAINT "console_users_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "console_invites" ADD CONSTRAINT "console_invites_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "console_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "console_sessions" ADD CONSTRAINT "console_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "console_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "console_oidc_configs" ADD CONSTRAINT "console_oidc_configs_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

