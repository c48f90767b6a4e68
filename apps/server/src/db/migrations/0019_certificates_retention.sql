CREATE TABLE "certificate_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"round" text NOT NULL,
	"job_id" uuid NOT NULL,
	"kinds" jsonb NOT NULL,
	"template_ids" jsonb,
	"participation_for_all" boolean DEFAULT false NOT NULL,
	"result_version" integer NOT NULL,
	"summary" jsonb DEFAULT '{"issued":0,"unchanged":0,"superseded":0,"revoked":0}'::jsonb NOT NULL,
	"actor_id" uuid,
	"actor_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "certificate_runs_round_ck" CHECK ("certificate_runs"."round" in ('PRELIMINARY', 'FINAL'))
);
--> statement-breakpoint
CREATE TABLE "certificate_template_versions" (
	"template_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"award_level" text,
	"page_size" text NOT NULL,
	"orientation" text NOT NULL,
	"background_id" uuid,
	"fields" jsonb NOT NULL,
	"created_by" uuid,
	"created_by_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "certificate_template_versions_template_id_version_pk" PRIMARY KEY("template_id","version"),
	CONSTRAINT "certificate_template_versions_page_ck" CHECK ("certificate_template_versions"."page_size" in ('A4', 'A5') and "certificate_template_versions"."orientation" in ('PORTRAIT', 'LANDSCAPE'))
);
--> statement-breakpoint
CREATE TABLE "certificate_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"award_level" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"current_version" integer DEFAULT 1 NOT NULL,
	"updated_by" uuid,
	"updated_by_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "certificate_templates_kind_ck" CHECK ("certificate_templates"."kind" in ('AWARD', 'PROMOTION', 'PARTICIPATION', 'EXPERT_APPOINTMENT', 'EXPERT_THANKS'))
);
--> statement-breakpoint
CREATE TABLE "certificates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"serial" text NOT NULL,
	"round" text NOT NULL,
	"kind" text NOT NULL,
	"holder_type" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"prelim_id" uuid,
	"team_id" uuid,
	"expert_id" uuid,
	"holder_name" text NOT NULL,
	"project_name" text,
	"award_code" text,
	"award" text,
	"fingerprint" text NOT NULL,
	"result_version_id" uuid,
	"result_version" integer NOT NULL,
	"template_id" uuid NOT NULL,
	"template_version" integer NOT NULL,
	"status" text DEFAULT 'VALID' NOT NULL,
	"successor_id" uuid,
	"ended_at" timestamp with time zone,
	"ended_run_id" uuid,
	"storage_key" text NOT NULL,
	"pdf_size" bigint NOT NULL,
	"pdf_sha256" text NOT NULL,
	"pdf_crc32" bigint NOT NULL,
	"run_id" uuid,
	"issued_at" timestamp with time zone NOT NULL,
	CONSTRAINT "certificates_kind_ck" CHECK ("certificates"."kind" in ('AWARD', 'PROMOTION', 'PARTICIPATION', 'EXPERT_APPOINTMENT', 'EXPERT_THANKS')),
	CONSTRAINT "certificates_round_ck" CHECK ("certificates"."round" in ('PRELIMINARY', 'FINAL')),
	CONSTRAINT "certificates_status_ck" CHECK ("certificates"."status" in ('VALID', 'SUPERSEDED', 'REVOKED')),
	CONSTRAINT "certificates_holder_ck" CHECK ("certificates"."holder_type" in ('TEAM', 'EXPERT'))
);
--> statement-breakpoint
CREATE TABLE "data_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"reply" text,
	"wait_reason" text,
	"decided_by" uuid,
	"decided_by_name" text,
	"decided_at" timestamp with time zone,
	"done_at" timestamp with time zone,
	"storage_key" text,
	"size" bigint,
	"expires_at" timestamp with time zone,
	"last_error" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_requests_status_ck" CHECK ("data_requests"."status" in ('QUEUED', 'READY', 'EXPIRED', 'FAILED', 'PENDING', 'REJECTED', 'WAITING', 'DONE'))
);
--> statement-breakpoint
CREATE TABLE "retention_items" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"run_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"target_id" text NOT NULL,
	"storage_key" text,
	"state" text DEFAULT 'PENDING' NOT NULL,
	"done_at" timestamp with time zone,
	CONSTRAINT "retention_items_state_ck" CHECK ("retention_items"."state" in ('PENDING', 'MARKED', 'DONE', 'SKIPPED'))
);
--> statement-breakpoint
CREATE TABLE "retention_pseudonyms" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"realm" text NOT NULL,
	"no" integer NOT NULL,
	"anonymised_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "retention_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source" text DEFAULT 'RETENTION' NOT NULL,
	"status" text DEFAULT 'PLANNED' NOT NULL,
	"request_id" uuid,
	"cutoffs" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"done" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"samples" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" uuid,
	"created_by_name" text DEFAULT '' NOT NULL,
	"started_by" uuid,
	"started_by_name" text,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"job_id" uuid,
	"last_error" text,
	"dry_run" boolean DEFAULT true NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "retention_runs_status_ck" CHECK ("retention_runs"."status" in ('PLANNED', 'QUEUED', 'RUNNING', 'DONE', 'FAILED', 'DISCARDED'))
);
--> statement-breakpoint
ALTER TABLE "certificate_runs" ADD CONSTRAINT "certificate_runs_actor_id_accounts_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_template_versions" ADD CONSTRAINT "certificate_template_versions_template_id_certificate_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."certificate_templates"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_template_versions" ADD CONSTRAINT "certificate_template_versions_background_id_attachments_id_fk" FOREIGN KEY ("background_id") REFERENCES "public"."attachments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_template_versions" ADD CONSTRAINT "certificate_template_versions_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_templates" ADD CONSTRAINT "certificate_templates_updated_by_accounts_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_prelim_id_prelim_docs_id_fk" FOREIGN KEY ("prelim_id") REFERENCES "public"."prelim_docs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_expert_id_accounts_id_fk" FOREIGN KEY ("expert_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_result_version_id_result_versions_id_fk" FOREIGN KEY ("result_version_id") REFERENCES "public"."result_versions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_run_id_certificate_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."certificate_runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_template_version_fk" FOREIGN KEY ("template_id","template_version") REFERENCES "public"."certificate_template_versions"("template_id","version") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_requests" ADD CONSTRAINT "data_requests_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_requests" ADD CONSTRAINT "data_requests_decided_by_accounts_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retention_items" ADD CONSTRAINT "retention_items_run_id_retention_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."retention_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retention_runs" ADD CONSTRAINT "retention_runs_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retention_runs" ADD CONSTRAINT "retention_runs_started_by_accounts_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "certificate_runs_round_idx" ON "certificate_runs" USING btree ("round","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "certificate_runs_job_uq" ON "certificate_runs" USING btree ("job_id");--> statement-breakpoint
CREATE INDEX "certificate_templates_kind_idx" ON "certificate_templates" USING btree ("kind","enabled");--> statement-breakpoint
CREATE UNIQUE INDEX "certificates_serial_uq" ON "certificates" USING btree ("serial");--> statement-breakpoint
CREATE UNIQUE INDEX "certificates_valid_uq" ON "certificates" USING btree ("round","kind","subject_id") WHERE "certificates"."status" = 'VALID';--> statement-breakpoint
CREATE INDEX "certificates_team_idx" ON "certificates" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "certificates_expert_idx" ON "certificates" USING btree ("expert_id");--> statement-breakpoint
CREATE INDEX "certificates_round_idx" ON "certificates" USING btree ("round","kind","status");--> statement-breakpoint
CREATE INDEX "certificates_issued_idx" ON "certificates" USING btree ("issued_at","id");--> statement-breakpoint
CREATE INDEX "data_requests_account_idx" ON "data_requests" USING btree ("account_id","kind","created_at");--> statement-breakpoint
CREATE INDEX "data_requests_status_idx" ON "data_requests" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "data_requests_open_delete_uq" ON "data_requests" USING btree ("account_id") WHERE "data_requests"."kind" = 'DELETE' and "data_requests"."status" in ('PENDING', 'WAITING');--> statement-breakpoint
CREATE UNIQUE INDEX "retention_items_run_target_uq" ON "retention_items" USING btree ("run_id","kind","target_id");--> statement-breakpoint
CREATE INDEX "retention_items_run_state_idx" ON "retention_items" USING btree ("run_id","state","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "retention_pseudonyms_realm_no_uq" ON "retention_pseudonyms" USING btree ("realm","no");--> statement-breakpoint
CREATE INDEX "retention_runs_created_idx" ON "retention_runs" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "retention_runs_request_uq" ON "retention_runs" USING btree ("request_id") WHERE "retention_runs"."request_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "retention_runs_active_uq" ON "retention_runs" USING btree ("source") WHERE "retention_runs"."source" = 'RETENTION' and "retention_runs"."status" in ('QUEUED', 'RUNNING');