-- Usage summed per tenant, hour, kind, model and key, with what the ledger charged those records: a usage
-- summary reads a few rows an hour instead of every record, whatever a tenant's traffic (and the records
-- themselves only for the part hours at a window's edges). Kept by two statement triggers, one per side,
-- so every writer of records or entries keeps it without knowing it.

-- CreateTable
CREATE TABLE "usage_hourly" (
    "tenant_id" UUID NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "kind" TEXT NOT NULL,
    "model_id" TEXT NOT NULL,
    "key_id" UUID NOT NULL,
    "requests" BIGINT NOT NULL DEFAULT 0,
    "prompt_tokens" BIGINT NOT NULL DEFAULT 0,
    "completion_tokens" BIGINT NOT NULL DEFAULT 0,
    "cached_tokens" BIGINT NOT NULL DEFAULT 0,
    "seconds" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "images" BIGINT NOT NULL DEFAULT 0,
    "tasks" BIGINT NOT NULL DEFAULT 0,
    "charged_micros" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "usage_hourly_pkey" PRIMARY KEY ("tenant_id","hour","kind","model_id","key_id")
);

-- Backfill: every record so far, with what the ledger charged it.
INSERT INTO "usage_hourly" ("tenant_id", "hour", "kind", "model_id", "key_id", "requests", "prompt_tokens", "completion_tokens",
                           "cached_tokens", "seconds", "images", "tasks", "charged_micros")
SELECT u."tenant_id", date_trunc('hour', u."created_at"), u."kind", u."model_id", u."key_id", count(*), sum(u."prompt_tokens"), sum(u."completion_tokens"),
       sum(u."cached_tokens"), sum(u."seconds"), sum(u."images"), sum(u."tasks"), coalesce(-sum(c."amount"), 0)
  FROM "usage_records" u
  LEFT JOIN (SELECT "tenant_id", "request_id", sum("amount_micros") AS "amount" FROM "ledger_entries"
              WHERE "request_id" IS NOT NULL GROUP BY 1, 2) c ON c."tenant_id" = u."tenant_id" AND c."request_id" = u."request_id"
 GROUP BY 1, 2, 3, 4, 5;

-- A record and the entries charging it may be written by concurrent transactions in either order: each
-- side takes a transaction lock per tenant it writes for before reading the other's table (in one order,
-- so two writers never wait on each other in a cycle), so whichever commits second sees the first and
-- adds it. Each upsert visits its rows in key order for the same reason.
CREATE FUNCTION "usage_hourly_add_records"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(h) FROM (SELECT DISTINCT hashtextextended(tenant_id::text, 24) AS h FROM new_rows ORDER BY 1) s;
  INSERT INTO usage_hourly AS d (tenant_id, hour, kind, model_id, key_id, requests, prompt_tokens, completion_tokens, cached_tokens, seconds, images, tasks, charged_micros)
  SELECT n.tenant_id, date_trunc('hour', n.created_at), n.kind, n.model_id, n.key_id, count(*), sum(n.prompt_tokens), sum(n.completion_tokens),
         sum(n.cached_tokens), sum(n.seconds), sum(n.images), sum(n.tasks), coalesce(-sum(c.amount), 0)
    FROM new_rows n
    LEFT JOIN LATERAL (SELECT sum(l.amount_micros) AS amount FROM ledger_entries l
                        WHERE l.tenant_id = n.tenant_id AND l.request_id = n.request_id) c ON true
   GROUP BY 1, 2, 3, 4, 5
   ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (tenant_id, hour, kind, model_id, key_id) DO UPDATE SET
    requests = d.requests + EXCLUDED.requests,
    prompt_tokens = d.prompt_tokens + EXCLUDED.prompt_tokens,
    completion_tokens = d.completion_tokens + EXCLUDED.completion_tokens,
    cached_tokens = d.cached_tokens + EXCLUDED.cached_tokens,
    seconds = d.seconds + EXCLUDED.seconds,
    images = d.images + EXCLUDED.images,
    tasks = d.tasks + EXCLUDED.tasks,
    charged_micros = d.charged_micros + EXCLUDED.charged_micros;
  RETURN NULL;
END $$;

CREATE FUNCTION "usage_hourly_add_charges"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(h)
     FROM (SELECT DISTINCT hashtextextended(tenant_id::text, 24) AS h FROM new_rows WHERE request_id IS NOT NULL ORDER BY 1) s;
  INSERT INTO usage_hourly AS d (tenant_id, hour, kind, model_id, key_id, charged_micros)
  SELECT u.tenant_id, date_trunc('hour', u.created_at), u.kind, u.model_id, u.key_id, -sum(n.amount_micros)
    FROM new_rows n
    JOIN usage_records u ON u.request_id = n.request_id AND u.tenant_id = n.tenant_id
   GROUP BY 1, 2, 3, 4, 5
   ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (tenant_id, hour, kind, model_id, key_id) DO UPDATE SET charged_micros = d.charged_micros + EXCLUDED.charged_micros;
  RETURN NULL;
END $$;

CREATE TRIGGER "usage_hourly_records" AFTER INSERT ON "usage_records"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "usage_hourly_add_records"();
CREATE TRIGGER "usage_hourly_charges" AFTER INSERT ON "ledger_entries"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "usage_hourly_add_charges"();
