-- pg_trgm, a contrib extension PostgreSQL ships, gives the trigram operator class of the search
-- index (src/modules/locations/list/locations.list-search.ts). It is trusted: a role with CREATE
-- on the database may add it. drizzle-kit does not write extensions, so this line is added by hand.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "searched_text" text GENERATED ALWAYS AS (lower(coalesce("title", '') || E'\x1f' || coalesce("address", '') || E'\x1f' || coalesce("city", '') || E'\x1f' || coalesce("zip", '') || E'\x1f' || coalesce("state", '') || E'\x1f' || coalesce("country", '') || E'\x1f' || coalesce("external_id", ''))) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "locations_searched_text_trgm_idx" ON "locations" USING gin ("searched_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "locations_workspace_title_idx" ON "locations" USING btree ("workspace_id",lower("title"),"id","title");--> statement-breakpoint
CREATE INDEX "locations_workspace_city_idx" ON "locations" USING btree ("workspace_id",lower(coalesce("city", '')),"id","city");--> statement-breakpoint
CREATE INDEX "locations_workspace_updated_at_idx" ON "locations" USING btree ("workspace_id","updated_at","id");