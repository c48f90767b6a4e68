CREATE TABLE "live_display_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"token_hash" text NOT NULL,
	"token_prefix" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_seen_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "live_session_judges" (
	"session_id" uuid NOT NULL,
	"expert_id" uuid NOT NULL,
	"sort" integer NOT NULL,
	CONSTRAINT "live_session_judges_session_id_expert_id_pk" PRIMARY KEY("session_id","expert_id")
);
--> statement-breakpoint
CREATE TABLE "live_session_projects" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"prelim_id" uuid NOT NULL,
	"sort" integer NOT NULL,
	"status" text DEFAULT 'WAITING' NOT NULL,
	"expected_judge_ids" jsonb,
	"presenting_at" timestamp with time zone,
	"qa_at" timestamp with time zone,
	"scoring_at" timestamp with time zone,
	"paused_at" timestamp with time zone,
	"paused_ms" integer DEFAULT 0 NOT NULL,
	"closed_at" timestamp with time zone,
	"close_reason" text,
	"revealed_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "live_session_projects_status_ck" CHECK ("live_session_projects"."status" in ('WAITING', 'PRESENTING', 'QA', 'SCORING', 'CLOSED', 'REVEALED', 'ABSENT', 'SKIPPED'))
);
--> statement-breakpoint
CREATE TABLE "live_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"venue" text NOT NULL,
	"date" text NOT NULL,
	"start_time" text,
	"presentation_minutes" integer NOT NULL,
	"qa_minutes" integer NOT NULL,
	"status" text DEFAULT 'PLANNED' NOT NULL,
	"current_prelim_id" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "live_sessions_status_ck" CHECK ("live_sessions"."status" in ('PLANNED', 'LIVE', 'ENDED'))
);
--> statement-breakpoint
CREATE TABLE "live_submit_keys" (
	"expert_id" uuid NOT NULL,
	"key" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"prelim_id" uuid NOT NULL,
	"sheet_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "live_submit_keys_expert_id_key_pk" PRIMARY KEY("expert_id","key")
);
--> statement-breakpoint
ALTER TABLE "live_display_links" ADD CONSTRAINT "live_display_links_session_id_live_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."live_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_display_links" ADD CONSTRAINT "live_display_links_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_session_judges" ADD CONSTRAINT "live_session_judges_session_id_live_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."live_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_session_judges" ADD CONSTRAINT "live_session_judges_expert_id_accounts_id_fk" FOREIGN KEY ("expert_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_session_projects" ADD CONSTRAINT "live_session_projects_session_id_live_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."live_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_session_projects" ADD CONSTRAINT "live_session_projects_prelim_id_prelim_docs_id_fk" FOREIGN KEY ("prelim_id") REFERENCES "public"."prelim_docs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_sessions" ADD CONSTRAINT "live_sessions_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_submit_keys" ADD CONSTRAINT "live_submit_keys_expert_id_accounts_id_fk" FOREIGN KEY ("expert_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_submit_keys" ADD CONSTRAINT "live_submit_keys_session_id_live_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."live_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "live_display_links_token_uq" ON "live_display_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "live_display_links_session_idx" ON "live_display_links" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "live_session_judges_expert_idx" ON "live_session_judges" USING btree ("expert_id");--> statement-breakpoint
CREATE UNIQUE INDEX "live_session_projects_prelim_uq" ON "live_session_projects" USING btree ("prelim_id");--> statement-breakpoint
CREATE INDEX "live_session_projects_session_idx" ON "live_session_projects" USING btree ("session_id","sort");--> statement-breakpoint
CREATE INDEX "live_sessions_date_idx" ON "live_sessions" USING btree ("date","name");