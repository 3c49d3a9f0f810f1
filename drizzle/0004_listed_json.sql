-- The stored JSON of a location's own fields, for lists (src/modules/locations/locations.listed-json.ts).
-- A generated column takes immutable expressions only; to_json and to_char are declared
-- stable, but on text, and with this fixed numeric pattern, their output depends on the
-- argument alone, so they are wrapped in immutable functions. PL/pgSQL: PostgreSQL never
-- inlines its body, so the declared volatility holds. lf_json_string is called only for texts
-- with a quote, a backslash or a control character; the rest are quoted as they are.
CREATE FUNCTION lf_json_string(value text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
  AS $$ BEGIN RETURN coalesce(to_json(value)::text, 'null'); END $$;--> statement-breakpoint
-- Date.prototype.toISOString as a JSON string: UTC, milliseconds (truncated, as a JS Date
-- truncates them).
CREATE FUNCTION lf_json_time(value timestamptz) RETURNS text
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
  AS $$ BEGIN RETURN '"' || to_char(value AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"'; END $$;--> statement-breakpoint
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
    when image_url ~ '[\x01-\x1f"\\]' then lf_json_string(image_url) else '"' || image_url || '"' end) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "listed_json_tail" text GENERATED ALWAYS AS (',"created_at":' || lf_json_time(created_at) || ',"updated_at":' || lf_json_time(updated_at) || '}') STORED NOT NULL;