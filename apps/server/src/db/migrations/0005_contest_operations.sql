CREATE TABLE "final_entries" (
	"prelim_id" uuid PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "final_entries_status_ck" CHECK ("final_entries"."status" in ('IN', 'OUT'))
);
--> statement-breakpoint
CREATE TABLE "notice_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"channel" text NOT NULL,
	"recipient" text NOT NULL,
	"account_id" uuid,
	"template_key" text NOT NULL,
	"params" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"text" text NOT NULL,
	"status" text DEFAULT 'QUEUED' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notice_outbox_status_ck" CHECK ("notice_outbox"."status" in ('QUEUED', 'SENDING', 'SENT', 'FAILED'))
);
--> statement-breakpoint
CREATE TABLE "reminders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"day" date NOT NULL,
	"account_id" uuid,
	"actor_id" uuid,
	"sms" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "prelim_docs" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "teams" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "final_entries" ADD CONSTRAINT "final_entries_prelim_id_prelim_docs_id_fk" FOREIGN KEY ("prelim_id") REFERENCES "public"."prelim_docs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notice_outbox" ADD CONSTRAINT "notice_outbox_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminders" ADD CONSTRAINT "reminders_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminders" ADD CONSTRAINT "reminders_actor_id_accounts_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "final_entries_status_idx" ON "final_entries" USING btree ("status","updated_at");--> statement-breakpoint
CREATE INDEX "notice_outbox_due_idx" ON "notice_outbox" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE UNIQUE INDEX "reminders_subject_day_uq" ON "reminders" USING btree ("subject_type","subject_id","day");--> statement-breakpoint
CREATE INDEX "prelim_docs_submitted_idx" ON "prelim_docs" USING btree ("status","submitted_at");--> statement-breakpoint
CREATE INDEX "prelim_docs_list_order_idx" ON "prelim_docs" USING btree ("submitted_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "prelim_docs_draft_order_idx" ON "prelim_docs" USING btree ("updated_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "prelim_docs_project_trgm_idx" ON "prelim_docs" USING gin ("project_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "teams_submitted_idx" ON "teams" USING btree ("status","submitted_at");--> statement-breakpoint
CREATE INDEX "teams_list_order_idx" ON "teams" USING btree ("submitted_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "teams_draft_order_idx" ON "teams" USING btree ("updated_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "teams_org_name_order_idx" ON "teams" USING btree ("org_name","id");--> statement-breakpoint
ALTER TABLE "prelim_docs" ADD CONSTRAINT "prelim_docs_status_ck" CHECK ("prelim_docs"."status" in ('DRAFT', 'SUBMITTED', 'APPROVED', 'REVISING', 'REJECTED'));--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_status_ck" CHECK ("teams"."status" in ('DRAFT', 'SUBMITTED', 'APPROVED', 'REVISING', 'REJECTED'));