CREATE TABLE "geocode_cache" (
	"provider" text NOT NULL,
	"address_key" text NOT NULL,
	"answer" text NOT NULL,
	"lat" double precision,
	"lng" double precision,
	"precision" text,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "geocode_cache_provider_address_key_pk" PRIMARY KEY("provider","address_key"),
	CONSTRAINT "geocode_cache_answer_check" CHECK ("geocode_cache"."answer" in ('found', 'not_found')),
	CONSTRAINT "geocode_cache_precision_check" CHECK ("geocode_cache"."precision" in ('ROOFTOP', 'RANGE_INTERPOLATED', 'GEOMETRIC_CENTER', 'APPROXIMATE')),
	CONSTRAINT "geocode_cache_found_check" CHECK (("geocode_cache"."answer" = 'found') = ("geocode_cache"."lat" is not null and "geocode_cache"."lng" is not null and "geocode_cache"."precision" is not null))
);
--> statement-breakpoint
CREATE TABLE "geocoder_pacing" (
	"provider" text PRIMARY KEY NOT NULL,
	"next_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "geocode_status" text;--> statement-breakpoint
CREATE INDEX "geocode_cache_expires_at_idx" ON "geocode_cache" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "locations_workspace_geocode_status_idx" ON "locations" USING btree ("workspace_id","geocode_status","id") WHERE "locations"."geocode_status" is not null;--> statement-breakpoint
ALTER TABLE "locations" ADD CONSTRAINT "locations_geocode_status_check" CHECK ("locations"."geocode_status" in ('pending', 'not_found', 'imprecise', 'failed'));--> statement-breakpoint
-- The rule of geocode_status (docs/api.md, Geocoding), kept by PostgreSQL so every writer (the
-- API, the CSV import's set-based statements, the AI import, bulk edits) follows it: a location
-- with coordinates has none; one without coordinates and without address, city or zip has
-- nothing to look up; otherwise a new location, a changed address or removed coordinates make
-- it `pending`, and any other write keeps what the row says (the job's own verdicts included).
-- drizzle-kit does not write functions or triggers, so these statements are added by hand.
CREATE FUNCTION "locations_geocode_status"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.lat IS NOT NULL AND NEW.lng IS NOT NULL THEN
    NEW.geocode_status := NULL;
  ELSIF btrim(concat(NEW.address, NEW.city, NEW.zip)) = '' THEN
    NEW.geocode_status := NULL;
  ELSIF TG_OP = 'INSERT'
    OR (NEW.address, NEW.city, NEW.state, NEW.zip, NEW.country)
       IS DISTINCT FROM (OLD.address, OLD.city, OLD.state, OLD.zip, OLD.country)
    OR (OLD.lat IS NOT NULL AND OLD.lng IS NOT NULL) THEN
    NEW.geocode_status := 'pending';
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "locations_geocode_status" BEFORE INSERT OR UPDATE OF "address", "city", "state", "zip", "country", "lat", "lng", "geocode_status" ON "locations" FOR EACH ROW EXECUTE FUNCTION "locations_geocode_status"();--> statement-breakpoint
-- Locations stored before: those without coordinates and with an address wait for geocoding.
UPDATE "locations" SET "geocode_status" = 'pending' WHERE ("lat" IS NULL OR "lng" IS NULL) AND btrim(concat("address", "city", "zip")) <> '';
