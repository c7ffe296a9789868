-- What a key may not do: models it may never use (ids or `*` patterns) and the only routes it may call
-- (route ids, `*` patterns or families; empty: every route). A project's keys share its model lists.
ALTER TABLE "api_keys" ADD COLUMN "deny_models" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "api_keys" ADD COLUMN "routes" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "projects" ADD COLUMN "models" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "projects" ADD COLUMN "deny_models" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
