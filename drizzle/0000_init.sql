CREATE TABLE "ai_import_batches" (
	"id" serial PRIMARY KEY NOT NULL,
	"workspace_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"finder_id" integer,
	"process_id" integer,
	"apply_process_id" integer,
	"status" text DEFAULT 'draft' NOT NULL,
	"model_name" text NOT NULL,
	"prompt_version" text NOT NULL,
	"total_items" integer DEFAULT 0 NOT NULL,
	"approved_items" integer DEFAULT 0 NOT NULL,
	"rejected_items" integer DEFAULT 0 NOT NULL,
	"imported_items" integer DEFAULT 0 NOT NULL,
	"failed_items" integer DEFAULT 0 NOT NULL,
	"source_answers" jsonb NOT NULL,
	"usage_metadata" jsonb,
	"discarded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ai_import_batches_status_check" CHECK ("ai_import_batches"."status" in ('draft', 'imported', 'discarded'))
);
--> statement-breakpoint
CREATE TABLE "ai_import_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"batch_id" integer NOT NULL,
	"status" text DEFAULT 'pending_review' NOT NULL,
	"confidence" text NOT NULL,
	"warnings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"validation_errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"normalized_payload" jsonb NOT NULL,
	"user_payload" jsonb,
	"raw_model_output" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"location_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ai_import_items_status_check" CHECK ("ai_import_items"."status" in ('pending_review', 'approved', 'rejected', 'imported', 'failed')),
	CONSTRAINT "ai_import_items_confidence_check" CHECK ("ai_import_items"."confidence" in ('high', 'medium', 'low'))
);
--> statement-breakpoint
CREATE TABLE "analytics_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"finder_id" integer NOT NULL,
	"type" text NOT NULL,
	"location_id" integer,
	"query" text,
	"session_id" text,
	"occurred_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "analytics_events_type_check" CHECK ("analytics_events"."type" in ('view', 'search', 'click', 'location_select'))
);
--> statement-breakpoint
CREATE TABLE "audit_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"method" text NOT NULL,
	"route" text NOT NULL,
	"path" text NOT NULL,
	"status" smallint NOT NULL,
	"ip" text,
	"user_agent" text,
	"request_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_challenges" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"methods" jsonb NOT NULL,
	"email_code_hash" text,
	"email_code_expires_at" timestamp with time zone,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"ip" text,
	"user_agent" text,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recovery_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"jti" uuid NOT NULL,
	"ip" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"event_type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"user_id" integer,
	"processed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "custom_field_definitions" (
	"id" serial PRIMARY KEY NOT NULL,
	"workspace_id" integer NOT NULL,
	"name" text NOT NULL,
	"label" text NOT NULL,
	"type" text NOT NULL,
	"options" jsonb,
	"required" boolean DEFAULT false NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "custom_field_definitions_type_check" CHECK ("custom_field_definitions"."type" in ('text', 'textarea', 'number', 'boolean', 'select', 'multiselect', 'url', 'email', 'phone', 'date'))
);
--> statement-breakpoint
CREATE TABLE "finder_integrations" (
	"id" serial PRIMARY KEY NOT NULL,
	"finder_id" integer NOT NULL,
	"provider" text NOT NULL,
	"api_key_encrypted" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "finder_integrations_provider_check" CHECK ("finder_integrations"."provider" in ('google', 'mapbox', 'here', 'tomtom', 'geoapify'))
);
--> statement-breakpoint
CREATE TABLE "finder_locations" (
	"finder_id" integer NOT NULL,
	"location_id" integer NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "finder_locations_finder_id_location_id_pk" PRIMARY KEY("finder_id","location_id")
);
--> statement-breakpoint
CREATE TABLE "finder_publications" (
	"id" serial PRIMARY KEY NOT NULL,
	"finder_id" integer NOT NULL,
	"hash" text NOT NULL,
	"object_key" text NOT NULL,
	"url" text NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "finders" (
	"id" serial PRIMARY KEY NOT NULL,
	"workspace_id" integer NOT NULL,
	"map_id" integer,
	"name" text NOT NULL,
	"token" text NOT NULL,
	"settings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"advanced_refinements" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"authorized_urls" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "locations" (
	"id" serial PRIMARY KEY NOT NULL,
	"workspace_id" integer NOT NULL,
	"external_id" text,
	"title" text NOT NULL,
	"description" text,
	"address" text,
	"city" text,
	"state" text,
	"country" text,
	"zip" text,
	"lat" double precision,
	"lng" double precision,
	"phone" text,
	"email" text,
	"website" text,
	"image_url" text,
	"image_key" text,
	"custom_values" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"match_key" text GENERATED ALWAYS AS (lower(regexp_replace(coalesce(title, ''), '[[:space:]]+', '', 'g')) || '|' || lower(regexp_replace(coalesce(address, ''), '[[:space:]]+', '', 'g')) || '|' || lower(regexp_replace(coalesce(zip, ''), '[[:space:]]+', '', 'g'))) STORED NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "map_locations" (
	"map_id" integer NOT NULL,
	"location_id" integer NOT NULL,
	CONSTRAINT "map_locations_map_id_location_id_pk" PRIMARY KEY("map_id","location_id")
);
--> statement-breakpoint
CREATE TABLE "map_owners" (
	"map_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "map_owners_map_id_user_id_pk" PRIMARY KEY("map_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "map_sets" (
	"map_id" integer NOT NULL,
	"set_id" integer NOT NULL,
	CONSTRAINT "map_sets_map_id_set_id_pk" PRIMARY KEY("map_id","set_id")
);
--> statement-breakpoint
CREATE TABLE "map_workspaces" (
	"map_id" integer NOT NULL,
	"workspace_id" integer NOT NULL,
	CONSTRAINT "map_workspaces_map_id_workspace_id_pk" PRIMARY KEY("map_id","workspace_id")
);
--> statement-breakpoint
CREATE TABLE "maps" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "process_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"process_id" integer NOT NULL,
	"type" text,
	"status" text,
	"progress_percent" integer,
	"step" text,
	"message" text,
	"payload" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "processes" (
	"id" serial PRIMARY KEY NOT NULL,
	"workspace_id" integer,
	"user_id" integer,
	"type" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"progress_percent" integer,
	"current_step" text,
	"summary" jsonb,
	"error_message" text,
	"queue" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"related_type" text,
	"related_id" integer,
	"input_payload" jsonb,
	"job_id" text,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "processes_status_check" CHECK ("processes"."status" in ('pending', 'running', 'waiting_review', 'completed', 'failed', 'cancelled')),
	CONSTRAINT "processes_progress_check" CHECK ("processes"."progress_percent" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "location_sets" (
	"set_id" integer NOT NULL,
	"location_id" integer NOT NULL,
	CONSTRAINT "location_sets_set_id_location_id_pk" PRIMARY KEY("set_id","location_id")
);
--> statement-breakpoint
CREATE TABLE "sets" (
	"id" serial PRIMARY KEY NOT NULL,
	"workspace_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "location_tags" (
	"location_id" integer NOT NULL,
	"tag_id" integer NOT NULL,
	CONSTRAINT "location_tags_location_id_tag_id_pk" PRIMARY KEY("location_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" serial PRIMARY KEY NOT NULL,
	"workspace_id" integer NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"role" text DEFAULT 'user' NOT NULL,
	"subscription_status" text DEFAULT 'none' NOT NULL,
	"subscription_tier" text DEFAULT 'none' NOT NULL,
	"trial_ends_at" timestamp with time zone,
	"paddle_customer_id" text,
	"paddle_subscription_id" text,
	"paddle_price_id" text,
	"paddle_status" text,
	"paddle_next_billed_at" timestamp with time zone,
	"totp_secret_encrypted" text,
	"totp_pending_secret_encrypted" text,
	"totp_enabled_at" timestamp with time zone,
	"totp_last_used_step" integer,
	"email_two_factor_enabled" boolean DEFAULT false NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_role_check" CHECK ("users"."role" in ('admin', 'user')),
	CONSTRAINT "users_subscription_status_check" CHECK ("users"."subscription_status" in ('active', 'trialing', 'past_due', 'canceled', 'none')),
	CONSTRAINT "users_subscription_tier_check" CHECK ("users"."subscription_tier" in ('none', 'free', 'bronze', 'premium', 'custom'))
);
--> statement-breakpoint
CREATE TABLE "invites" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"workspace_id" integer NOT NULL,
	"invited_by" integer,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspace_members" (
	"workspace_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"role" text DEFAULT 'member' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_members_workspace_id_user_id_pk" PRIMARY KEY("workspace_id","user_id"),
	CONSTRAINT "workspace_members_role_check" CHECK ("workspace_members"."role" in ('owner', 'member'))
);
--> statement-breakpoint
CREATE TABLE "workspaces" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ai_import_batches" ADD CONSTRAINT "ai_import_batches_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_import_batches" ADD CONSTRAINT "ai_import_batches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_import_batches" ADD CONSTRAINT "ai_import_batches_finder_id_finders_id_fk" FOREIGN KEY ("finder_id") REFERENCES "public"."finders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_import_batches" ADD CONSTRAINT "ai_import_batches_process_id_processes_id_fk" FOREIGN KEY ("process_id") REFERENCES "public"."processes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_import_batches" ADD CONSTRAINT "ai_import_batches_apply_process_id_processes_id_fk" FOREIGN KEY ("apply_process_id") REFERENCES "public"."processes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_import_items" ADD CONSTRAINT "ai_import_items_batch_id_ai_import_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."ai_import_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_import_items" ADD CONSTRAINT "ai_import_items_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_events" ADD CONSTRAINT "analytics_events_finder_id_finders_id_fk" FOREIGN KEY ("finder_id") REFERENCES "public"."finders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_logs" ADD CONSTRAINT "audit_logs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "login_challenges" ADD CONSTRAINT "login_challenges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_field_definitions" ADD CONSTRAINT "custom_field_definitions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finder_integrations" ADD CONSTRAINT "finder_integrations_finder_id_finders_id_fk" FOREIGN KEY ("finder_id") REFERENCES "public"."finders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finder_locations" ADD CONSTRAINT "finder_locations_finder_id_finders_id_fk" FOREIGN KEY ("finder_id") REFERENCES "public"."finders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finder_locations" ADD CONSTRAINT "finder_locations_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finder_publications" ADD CONSTRAINT "finder_publications_finder_id_finders_id_fk" FOREIGN KEY ("finder_id") REFERENCES "public"."finders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finders" ADD CONSTRAINT "finders_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finders" ADD CONSTRAINT "finders_map_id_maps_id_fk" FOREIGN KEY ("map_id") REFERENCES "public"."maps"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locations" ADD CONSTRAINT "locations_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "map_locations" ADD CONSTRAINT "map_locations_map_id_maps_id_fk" FOREIGN KEY ("map_id") REFERENCES "public"."maps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "map_locations" ADD CONSTRAINT "map_locations_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "map_owners" ADD CONSTRAINT "map_owners_map_id_maps_id_fk" FOREIGN KEY ("map_id") REFERENCES "public"."maps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "map_owners" ADD CONSTRAINT "map_owners_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "map_sets" ADD CONSTRAINT "map_sets_map_id_maps_id_fk" FOREIGN KEY ("map_id") REFERENCES "public"."maps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "map_sets" ADD CONSTRAINT "map_sets_set_id_sets_id_fk" FOREIGN KEY ("set_id") REFERENCES "public"."sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "map_workspaces" ADD CONSTRAINT "map_workspaces_map_id_maps_id_fk" FOREIGN KEY ("map_id") REFERENCES "public"."maps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "map_workspaces" ADD CONSTRAINT "map_workspaces_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "process_events" ADD CONSTRAINT "process_events_process_id_processes_id_fk" FOREIGN KEY ("process_id") REFERENCES "public"."processes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processes" ADD CONSTRAINT "processes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processes" ADD CONSTRAINT "processes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_sets" ADD CONSTRAINT "location_sets_set_id_sets_id_fk" FOREIGN KEY ("set_id") REFERENCES "public"."sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_sets" ADD CONSTRAINT "location_sets_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sets" ADD CONSTRAINT "sets_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_tags" ADD CONSTRAINT "location_tags_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_tags" ADD CONSTRAINT "location_tags_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_members" ADD CONSTRAINT "workspace_members_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_members" ADD CONSTRAINT "workspace_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ai_import_batches_workspace_id_updated_at_idx" ON "ai_import_batches" USING btree ("workspace_id","updated_at");--> statement-breakpoint
CREATE INDEX "ai_import_batches_user_id_idx" ON "ai_import_batches" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "ai_import_batches_finder_id_idx" ON "ai_import_batches" USING btree ("finder_id");--> statement-breakpoint
CREATE INDEX "ai_import_batches_process_id_idx" ON "ai_import_batches" USING btree ("process_id");--> statement-breakpoint
CREATE INDEX "ai_import_batches_apply_process_id_idx" ON "ai_import_batches" USING btree ("apply_process_id");--> statement-breakpoint
CREATE INDEX "ai_import_items_batch_id_id_idx" ON "ai_import_items" USING btree ("batch_id","id");--> statement-breakpoint
CREATE INDEX "ai_import_items_location_id_idx" ON "ai_import_items" USING btree ("location_id");--> statement-breakpoint
CREATE INDEX "analytics_events_finder_id_occurred_at_idx" ON "analytics_events" USING btree ("finder_id","occurred_at");--> statement-breakpoint
CREATE INDEX "audit_logs_user_id_created_at_idx" ON "audit_logs" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "audit_logs_created_at_idx" ON "audit_logs" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "login_challenges_token_hash_unique" ON "login_challenges" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "login_challenges_user_id_idx" ON "login_challenges" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "recovery_codes_user_id_idx" ON "recovery_codes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "recovery_codes_unused_idx" ON "recovery_codes" USING btree ("user_id","code_hash") WHERE "recovery_codes"."used_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_jti_unique" ON "sessions" USING btree ("jti");--> statement-breakpoint
CREATE INDEX "sessions_user_id_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_events_provider_event_id_unique" ON "webhook_events" USING btree ("provider","event_id");--> statement-breakpoint
CREATE INDEX "webhook_events_user_id_idx" ON "webhook_events" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "custom_field_definitions_workspace_id_name_unique" ON "custom_field_definitions" USING btree ("workspace_id","name");--> statement-breakpoint
CREATE INDEX "custom_field_definitions_workspace_id_sort_order_idx" ON "custom_field_definitions" USING btree ("workspace_id","sort_order");--> statement-breakpoint
CREATE UNIQUE INDEX "finder_integrations_finder_id_provider_unique" ON "finder_integrations" USING btree ("finder_id","provider");--> statement-breakpoint
CREATE INDEX "finder_locations_location_id_idx" ON "finder_locations" USING btree ("location_id");--> statement-breakpoint
CREATE INDEX "finder_publications_finder_id_published_at_idx" ON "finder_publications" USING btree ("finder_id","published_at");--> statement-breakpoint
CREATE UNIQUE INDEX "finders_token_unique" ON "finders" USING btree ("token");--> statement-breakpoint
CREATE INDEX "finders_workspace_id_idx" ON "finders" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "finders_map_id_idx" ON "finders" USING btree ("map_id");--> statement-breakpoint
CREATE INDEX "locations_workspace_id_id_idx" ON "locations" USING btree ("workspace_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "locations_workspace_external_id_unique" ON "locations" USING btree ("workspace_id","external_id") WHERE "locations"."external_id" is not null;--> statement-breakpoint
CREATE INDEX "locations_workspace_id_match_key_idx" ON "locations" USING btree ("workspace_id","match_key");--> statement-breakpoint
CREATE INDEX "map_locations_location_id_idx" ON "map_locations" USING btree ("location_id");--> statement-breakpoint
CREATE INDEX "map_owners_user_id_idx" ON "map_owners" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "map_sets_set_id_idx" ON "map_sets" USING btree ("set_id");--> statement-breakpoint
CREATE INDEX "map_workspaces_workspace_id_idx" ON "map_workspaces" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "process_events_process_id_id_idx" ON "process_events" USING btree ("process_id","id");--> statement-breakpoint
CREATE INDEX "processes_workspace_id_created_at_idx" ON "processes" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "processes_user_id_created_at_idx" ON "processes" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "processes_status_idx" ON "processes" USING btree ("status");--> statement-breakpoint
CREATE INDEX "location_sets_location_id_idx" ON "location_sets" USING btree ("location_id");--> statement-breakpoint
CREATE INDEX "sets_workspace_id_idx" ON "sets" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "location_tags_tag_id_idx" ON "location_tags" USING btree ("tag_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tags_workspace_id_slug_unique" ON "tags" USING btree ("workspace_id","slug");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_active_unique" ON "users" USING btree (lower("email")) WHERE "users"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "users_paddle_customer_id_idx" ON "users" USING btree ("paddle_customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invites_token_hash_unique" ON "invites" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "invites_workspace_id_idx" ON "invites" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "invites_invited_by_idx" ON "invites" USING btree ("invited_by");--> statement-breakpoint
CREATE INDEX "workspace_members_user_id_idx" ON "workspace_members" USING btree ("user_id");