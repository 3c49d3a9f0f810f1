-- Finders defined by a rule (docs/api.md, Finders): its tags and sets in join tables that go
-- with the tag or set, its countries and whether it names tags or sets on the finder; a
-- null rule_countries is no rule, as every finder had before.
CREATE TABLE "finder_rule_sets" (
	"finder_id" integer NOT NULL,
	"set_id" integer NOT NULL,
	CONSTRAINT "finder_rule_sets_finder_id_set_id_pk" PRIMARY KEY("finder_id","set_id")
);
--> statement-breakpoint
CREATE TABLE "finder_rule_tags" (
	"finder_id" integer NOT NULL,
	"tag_id" integer NOT NULL,
	CONSTRAINT "finder_rule_tags_finder_id_tag_id_pk" PRIMARY KEY("finder_id","tag_id")
);
--> statement-breakpoint
ALTER TABLE "finders" ADD COLUMN "rule_countries" text[];--> statement-breakpoint
ALTER TABLE "finders" ADD COLUMN "rule_country_names" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "finders" ADD COLUMN "rule_has_tags" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "finders" ADD COLUMN "rule_has_sets" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "finder_rule_sets" ADD CONSTRAINT "finder_rule_sets_finder_id_finders_id_fk" FOREIGN KEY ("finder_id") REFERENCES "public"."finders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finder_rule_sets" ADD CONSTRAINT "finder_rule_sets_set_id_sets_id_fk" FOREIGN KEY ("set_id") REFERENCES "public"."sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finder_rule_tags" ADD CONSTRAINT "finder_rule_tags_finder_id_finders_id_fk" FOREIGN KEY ("finder_id") REFERENCES "public"."finders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finder_rule_tags" ADD CONSTRAINT "finder_rule_tags_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "finder_rule_sets_set_id_idx" ON "finder_rule_sets" USING btree ("set_id");--> statement-breakpoint
CREATE INDEX "finder_rule_tags_tag_id_idx" ON "finder_rule_tags" USING btree ("tag_id");