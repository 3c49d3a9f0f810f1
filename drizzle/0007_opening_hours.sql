-- Opening hours (src/lib/hours) and holiday calendars. The new columns are added before the
-- stored JSON columns are written again, as those read them (drizzle-kit writes the drops and
-- adds in the other order; reordered by hand).
CREATE TABLE "holiday_calendar_locations" (
	"calendar_id" integer NOT NULL,
	"location_id" integer NOT NULL,
	CONSTRAINT "holiday_calendar_locations_calendar_id_location_id_pk" PRIMARY KEY("calendar_id","location_id")
);
--> statement-breakpoint
CREATE TABLE "holiday_calendar_sets" (
	"calendar_id" integer NOT NULL,
	"set_id" integer NOT NULL,
	CONSTRAINT "holiday_calendar_sets_calendar_id_set_id_pk" PRIMARY KEY("calendar_id","set_id")
);
--> statement-breakpoint
CREATE TABLE "holiday_calendars" (
	"id" serial PRIMARY KEY NOT NULL,
	"workspace_id" integer NOT NULL,
	"name" text NOT NULL,
	"days" json NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "hours" json;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "special_hours" json;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "temporarily_closed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "reopens_on" text;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "time_zone_derived" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "time_zone_review" text;--> statement-breakpoint
ALTER TABLE "locations" drop column "listed_json_head";--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "listed_json_head" text GENERATED ALWAYS AS ('"title":' || case when title is null then 'null'
    when title ~ '[\x01-\x1f"\\]' then lf_json_string(title) else '"' || title || '"' end || ',"description":' || case when description is null then 'null'
    when description ~ '[\x01-\x1f"\\]' then lf_json_string(description) else '"' || description || '"' end || ',"address":' || case when address is null then 'null'
    when address ~ '[\x01-\x1f"\\]' then lf_json_string(address) else '"' || address || '"' end || ',"city":' || case when city is null then 'null'
    when city ~ '[\x01-\x1f"\\]' then lf_json_string(city) else '"' || city || '"' end || ',"state":' || case when state is null then 'null'
    when state ~ '[\x01-\x1f"\\]' then lf_json_string(state) else '"' || state || '"' end || ',"country":' || case when country is null then 'null'
    when country ~ '[\x01-\x1f"\\]' then lf_json_string(country) else '"' || country || '"' end || ',"zip":' || case when zip is null then 'null'
    when zip ~ '[\x01-\x1f"\\]' then lf_json_string(zip) else '"' || zip || '"' end
  || ',"lat":' || case when lat is null then 'null' when lat = 0 then '0'
    when abs(lat) >= 1e-4 and abs(lat) < 1e15 then lat::text
    else E'\x01' || lat::text || E'\x01' end || ',"lng":' || case when lng is null then 'null' when lng = 0 then '0'
    when abs(lng) >= 1e-4 and abs(lng) < 1e15 then lng::text
    else E'\x01' || lng::text || E'\x01' end
  || ',' || '"phone":' || case when phone is null then 'null'
    when phone ~ '[\x01-\x1f"\\]' then lf_json_string(phone) else '"' || phone || '"' end || ',"email":' || case when email is null then 'null'
    when email ~ '[\x01-\x1f"\\]' then lf_json_string(email) else '"' || email || '"' end || ',"website":' || case when website is null then 'null'
    when website ~ '[\x01-\x1f"\\]' then lf_json_string(website) else '"' || website || '"' end || ',"image_url":' || case when image_url is null then 'null'
    when image_url ~ '[\x01-\x1f"\\]' then lf_json_string(image_url) else '"' || image_url || '"' end || ',"time_zone":' || case when time_zone is null then 'null'
    when time_zone ~ '[\x01-\x1f"\\]' then lf_json_string(time_zone) else '"' || time_zone || '"' end
  || ',"hours":' || coalesce(hours::text, 'null')
  || ',"temporarily_closed":' || case when temporarily_closed then 'true' else 'false' end
  || ',' || '"reopens_on":' || case when reopens_on is null then 'null'
    when reopens_on ~ '[\x01-\x1f"\\]' then lf_json_string(reopens_on) else '"' || reopens_on || '"' end) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "locations" drop column "listed_json_tail";--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "listed_json_tail" text GENERATED ALWAYS AS (',"special_hours":' || coalesce(special_hours::text, 'null')
  || ',"time_zone_derived":' || case when time_zone_derived then 'true' else 'false' end
  || ',' || '"time_zone_review":' || case when time_zone_review is null then 'null'
    when time_zone_review ~ '[\x01-\x1f"\\]' then lf_json_string(time_zone_review) else '"' || time_zone_review || '"' end
  || ',"created_at":' || lf_json_time(created_at) || ',"updated_at":' || lf_json_time(updated_at) || '}') STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "holiday_calendar_locations" ADD CONSTRAINT "holiday_calendar_locations_calendar_id_holiday_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."holiday_calendars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holiday_calendar_locations" ADD CONSTRAINT "holiday_calendar_locations_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holiday_calendar_sets" ADD CONSTRAINT "holiday_calendar_sets_calendar_id_holiday_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."holiday_calendars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holiday_calendar_sets" ADD CONSTRAINT "holiday_calendar_sets_set_id_sets_id_fk" FOREIGN KEY ("set_id") REFERENCES "public"."sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holiday_calendars" ADD CONSTRAINT "holiday_calendars_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "holiday_calendar_locations_location_id_idx" ON "holiday_calendar_locations" USING btree ("location_id");--> statement-breakpoint
CREATE INDEX "holiday_calendar_sets_set_id_idx" ON "holiday_calendar_sets" USING btree ("set_id");--> statement-breakpoint
CREATE UNIQUE INDEX "holiday_calendars_workspace_name_unique" ON "holiday_calendars" USING btree ("workspace_id","name");
--> statement-breakpoint
-- A location's special days as the widget payload lists them (src/lib/hours/hours.model.ts
-- SpecialDay: ["2026-12-24",["09:00-14:00"],"Christmas Eve"]), as JSON text: each date from
-- `first` through `last` that its own special hours or one of its holiday calendars names,
-- once. Its own entry wins; then the calendars in the order of `calendar_ids`. The hours are
-- the json text the service stored (compact). Read-only SQL, stable: it reads the calendars.
CREATE FUNCTION lf_special_days(own json, calendar_ids int[], first date, last date) RETURNS text
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$
  select coalesce('[' || string_agg('["' || to_char(day, 'YYYY-MM-DD') || '",' || hours
      || coalesce(',' || to_json(label)::text, '') || ']', ',' order by day) || ']', '[]')
  from (
    select distinct on (day) day, hours, label
    from (
      select 0::bigint as rank, e.entry from json_array_elements(own) as e(entry)
      union all
      select u.pos, e.entry
      from unnest(calendar_ids) with ordinality as u(id, pos)
      join holiday_calendars hc on hc.id = u.id
      cross join json_array_elements(hc.days) as e(entry)
    ) entries
    cross join lateral (
      select d::date as day, (entry->'hours')::text as hours, nullif(entry->>'label', '') as label
      from generate_series(
        greatest((entry->>'date')::date, first),
        least(coalesce((entry->>'end_date')::date, (entry->>'date')::date), last),
        interval '1 day') as d
    ) days
    order by day, rank
  ) chosen
$$;
