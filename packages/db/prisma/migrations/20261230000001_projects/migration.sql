-- Projects: a tenant's keys in groups. Every tenant gets `default`, and every existing key moves there.
CREATE TABLE "projects" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "projects_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "projects_tenant_id_name_key" ON "projects"("tenant_id", "name");

ALTER TABLE "projects" ADD CONSTRAINT "projects_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

INSERT INTO "projects" ("id", "tenant_id", "name") SELECT gen_random_uuid(), "id", 'default' FROM "tenants";

ALTER TABLE "api_keys" ADD COLUMN "project_id" UUID;
UPDATE "api_keys" k SET "project_id" = p."id" FROM "projects" p WHERE p."tenant_id" = k."tenant_id" AND p."name" = 'default';
ALTER TABLE "api_keys" ALTER COLUMN "project_id" SET NOT NULL;

CREATE INDEX "api_keys_project_id_idx" ON "api_keys"("project_id");

ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
