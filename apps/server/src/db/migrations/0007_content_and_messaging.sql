CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'QUEUED' NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_by" text,
	"heartbeat_at" timestamp with time zone,
	"dedupe_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "jobs_status_ck" CHECK ("jobs"."status" in ('QUEUED', 'RUNNING', 'DONE', 'FAILED'))
);
--> statement-breakpoint
CREATE TABLE "message_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"channel" text NOT NULL,
	"template_id" uuid,
	"title" text DEFAULT '' NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"segment" jsonb NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'QUEUED' NOT NULL,
	"job_id" uuid,
	"sender_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "message_batches_status_ck" CHECK ("message_batches"."status" in ('QUEUED', 'RUNNING', 'DONE', 'FAILED', 'RECALLED'))
);
--> statement-breakpoint
CREATE TABLE "message_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text,
	"name" text NOT NULL,
	"channels" jsonb DEFAULT '["INSITE"]'::jsonb NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"sms_text" text DEFAULT '' NOT NULL,
	"sms_template_id" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dict_items" ADD COLUMN "name_en" text;--> statement-breakpoint
ALTER TABLE "dict_types" ADD COLUMN "name_en" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "title_en" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "batch_id" uuid;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "recalled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "news" ADD COLUMN "title_en" text;--> statement-breakpoint
ALTER TABLE "news" ADD COLUMN "summary_en" text;--> statement-breakpoint
ALTER TABLE "news" ADD COLUMN "body_en" text;--> statement-breakpoint
ALTER TABLE "notice_outbox" ADD COLUMN "subject" text;--> statement-breakpoint
ALTER TABLE "notice_outbox" ADD COLUMN "batch_id" uuid;--> statement-breakpoint
ALTER TABLE "notice_outbox" ADD COLUMN "provider_answer" text;--> statement-breakpoint
ALTER TABLE "site_content" ADD COLUMN "title_en" text;--> statement-breakpoint
ALTER TABLE "site_content" ADD COLUMN "body_en" text;--> statement-breakpoint
ALTER TABLE "message_batches" ADD CONSTRAINT "message_batches_template_id_message_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."message_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_batches" ADD CONSTRAINT "message_batches_sender_id_accounts_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_templates" ADD CONSTRAINT "message_templates_updated_by_accounts_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("status","run_at");--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_dedupe_uq" ON "jobs" USING btree ("dedupe_key") WHERE "jobs"."dedupe_key" is not null and "jobs"."status" in ('QUEUED', 'RUNNING');--> statement-breakpoint
CREATE INDEX "message_batches_channel_idx" ON "message_batches" USING btree ("channel","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "message_templates_code_uq" ON "message_templates" USING btree ("code") WHERE "message_templates"."code" is not null;--> statement-breakpoint
CREATE INDEX "messages_batch_idx" ON "messages" USING btree ("batch_id");--> statement-breakpoint
CREATE UNIQUE INDEX "notice_outbox_batch_recipient_uq" ON "notice_outbox" USING btree ("batch_id","account_id","channel") WHERE "notice_outbox"."batch_id" is not null;