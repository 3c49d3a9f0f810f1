CREATE TABLE "analytics_sessions" (
	"finder_id" integer NOT NULL,
	"day" date NOT NULL,
	"session_id" text NOT NULL,
	CONSTRAINT "analytics_sessions_finder_id_day_session_id_pk" PRIMARY KEY("finder_id","day","session_id")
);
--> statement-breakpoint
ALTER TABLE "analytics_sessions" ADD CONSTRAINT "analytics_sessions_finder_id_finders_id_fk" FOREIGN KEY ("finder_id") REFERENCES "public"."finders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Sessions of the events stored before this table existed, so their reports have them too.
INSERT INTO "analytics_sessions" ("finder_id", "day", "session_id")
SELECT DISTINCT "finder_id", ("occurred_at" AT TIME ZONE 'UTC')::date, "session_id"
FROM "analytics_events" WHERE "session_id" IS NOT NULL;--> statement-breakpoint
-- A view counts once per session and finder (docs/api.md, "Widget analytics"): views that a
-- session posted again before the rule are removed, its first one kept, so that the unique
-- index can be built.
DELETE FROM "analytics_events" WHERE "id" IN (
  SELECT "id" FROM (
    SELECT "id", row_number() OVER (PARTITION BY "finder_id", "session_id" ORDER BY "id") AS "n"
    FROM "analytics_events" WHERE "type" = 'view' AND "session_id" IS NOT NULL
  ) AS "views" WHERE "n" > 1
);--> statement-breakpoint
CREATE UNIQUE INDEX "analytics_events_view_session_idx" ON "analytics_events" USING btree ("finder_id","session_id") WHERE "analytics_events"."type" = 'view';