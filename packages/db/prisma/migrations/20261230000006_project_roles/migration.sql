-- Roles per project: a person of the tenant given owner, developer or viewer on one project, beside their tenant role.
CREATE TABLE "project_members" (
    "project_id" UUID NOT NULL,
    "console_user_id" UUID NOT NULL,
    "role" "ConsoleRole" NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "project_members_pkey" PRIMARY KEY ("project_id", "console_user_id")
);

CREATE INDEX "project_members_console_user_id_idx" ON "project_members"("console_user_id");

ALTER TABLE "project_members" ADD CONSTRAINT "project_members_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_console_user_id_fkey" FOREIGN KEY ("console_user_id") REFERENCES "console_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
