CREATE TABLE "appeals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"round" text NOT NULL,
	"result_version_id" uuid NOT NULL,
	"result_version" integer NOT NULL,
	"team_id" uuid NOT NULL,
	"prelim_id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"attachment_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'SUBMITTED' NOT NULL,
	"reply" text,
	"rereview" jsonb,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"due_at" timestamp with time zone NOT NULL,
	"resolved_version" integer,
	"resolved_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "appeals_round_ck" CHECK ("appeals"."round" in ('PRELIMINARY', 'FINAL')),
	CONSTRAINT "appeals_status_ck" CHECK ("appeals"."status" in ('SUBMITTED', 'REJECTED', 'ACCEPTED', 'RESOLVED'))
);
--> statement-breakpoint
CREATE TABLE "result_entries" (
	"version_id" uuid NOT NULL,
	"prelim_id" uuid NOT NULL,
	"team_id" uuid NOT NULL,
	"project_name" text NOT NULL,
	"team_name" text NOT NULL,
	"org_name" text NOT NULL,
	"track" text,
	"rank" integer,
	"track_rank" integer,
	"score" double precision,
	"outcome" text NOT NULL,
	"award_code" text,
	"award_name" text,
	CONSTRAINT "result_entries_version_id_prelim_id_pk" PRIMARY KEY("version_id","prelim_id"),
	CONSTRAINT "result_entries_outcome_ck" CHECK ("result_entries"."outcome" in ('PROMOTED', 'NOT_PROMOTED', 'AWARDED', 'NONE'))
);
--> statement-breakpoint
CREATE TABLE "result_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"round" text NOT NULL,
	"version" integer NOT NULL,
	"status" text NOT NULL,
	"rule" jsonb NOT NULL,
	"reason" text,
	"news_id" uuid,
	"actor_id" uuid,
	"actor_name" text NOT NULL,
	"published_at" timestamp with time zone NOT NULL,
	"period_ends_at" timestamp with time zone NOT NULL,
	"appeal_ends_at" timestamp with time zone NOT NULL,
	"superseded_at" timestamp with time zone,
	CONSTRAINT "result_versions_round_ck" CHECK ("result_versions"."round" in ('PRELIMINARY', 'FINAL')),
	CONSTRAINT "result_versions_status_ck" CHECK ("result_versions"."status" in ('PUBLISHED', 'SUPERSEDED'))
);
--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_result_version_id_result_versions_id_fk" FOREIGN KEY ("result_version_id") REFERENCES "public"."result_versions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_prelim_id_prelim_docs_id_fk" FOREIGN KEY ("prelim_id") REFERENCES "public"."prelim_docs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_decided_by_accounts_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_entries" ADD CONSTRAINT "result_entries_version_id_result_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."result_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_entries" ADD CONSTRAINT "result_entries_prelim_id_prelim_docs_id_fk" FOREIGN KEY ("prelim_id") REFERENCES "public"."prelim_docs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_entries" ADD CONSTRAINT "result_entries_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_versions" ADD CONSTRAINT "result_versions_news_id_news_id_fk" FOREIGN KEY ("news_id") REFERENCES "public"."news"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_versions" ADD CONSTRAINT "result_versions_actor_id_accounts_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "appeals_round_team_uq" ON "appeals" USING btree ("round","team_id");--> statement-breakpoint
CREATE INDEX "appeals_status_due_idx" ON "appeals" USING btree ("status","due_at");--> statement-breakpoint
CREATE INDEX "appeals_round_created_idx" ON "appeals" USING btree ("round","created_at");--> statement-breakpoint
CREATE INDEX "appeals_prelim_idx" ON "appeals" USING btree ("prelim_id");--> statement-breakpoint
CREATE INDEX "result_entries_prelim_idx" ON "result_entries" USING btree ("prelim_id");--> statement-breakpoint
CREATE INDEX "result_entries_team_idx" ON "result_entries" USING btree ("team_id");--> statement-breakpoint
CREATE UNIQUE INDEX "result_versions_round_version_uq" ON "result_versions" USING btree ("round","version");--> statement-breakpoint
CREATE UNIQUE INDEX "result_versions_round_current_uq" ON "result_versions" USING btree ("round") WHERE "result_versions"."status" = 'PUBLISHED';