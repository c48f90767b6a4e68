CREATE TABLE "documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text,
	"title" text NOT NULL,
	"attachment_id" uuid NOT NULL,
	"category" text NOT NULL,
	"audience" text DEFAULT 'PUBLIC' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "feedback" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"type" text NOT NULL,
	"content" text NOT NULL,
	"contact" text,
	"attachment_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'OPEN' NOT NULL,
	"reply" text,
	"replied_by" uuid,
	"replied_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_recipients" (
	"message_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_recipients_message_id_account_id_pk" PRIMARY KEY("message_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"kind" text DEFAULT 'SYSTEM' NOT NULL,
	"audience" text DEFAULT 'ACCOUNTS' NOT NULL,
	"segment" jsonb,
	"sender_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prelim_docs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"status" text DEFAULT 'DRAFT' NOT NULL,
	"project_name" text DEFAULT '' NOT NULL,
	"track" text,
	"summary" text DEFAULT '' NOT NULL,
	"keywords" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"application_file_id" uuid,
	"application_chars" integer,
	"presentation_file_id" uuid,
	"video_file_id" uuid,
	"other_file_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"audit_reason" text,
	"submitted_at" timestamp with time zone,
	"audited_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_content" (
	"key" text PRIMARY KEY NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "status_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"reason" text,
	"actor_id" uuid,
	"actor_realm" text NOT NULL,
	"actor_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "teams" ADD COLUMN "certificate_file_id" uuid;--> statement-breakpoint
ALTER TABLE "teams" ADD COLUMN "commitment_file_id" uuid;--> statement-breakpoint
ALTER TABLE "teams" ADD COLUMN "recommendation_file_id" uuid;--> statement-breakpoint
ALTER TABLE "teams" ADD COLUMN "audit_reason" text;--> statement-breakpoint
ALTER TABLE "teams" ADD COLUMN "audited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_attachment_id_attachments_id_fk" FOREIGN KEY ("attachment_id") REFERENCES "public"."attachments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_replied_by_accounts_id_fk" FOREIGN KEY ("replied_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_recipients" ADD CONSTRAINT "message_recipients_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_recipients" ADD CONSTRAINT "message_recipients_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_sender_id_accounts_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prelim_docs" ADD CONSTRAINT "prelim_docs_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prelim_docs" ADD CONSTRAINT "prelim_docs_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prelim_docs" ADD CONSTRAINT "prelim_docs_application_file_id_attachments_id_fk" FOREIGN KEY ("application_file_id") REFERENCES "public"."attachments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prelim_docs" ADD CONSTRAINT "prelim_docs_presentation_file_id_attachments_id_fk" FOREIGN KEY ("presentation_file_id") REFERENCES "public"."attachments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prelim_docs" ADD CONSTRAINT "prelim_docs_video_file_id_attachments_id_fk" FOREIGN KEY ("video_file_id") REFERENCES "public"."attachments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_content" ADD CONSTRAINT "site_content_updated_by_accounts_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "status_history" ADD CONSTRAINT "status_history_actor_id_accounts_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "documents_code_uq" ON "documents" USING btree ("code") WHERE "documents"."code" is not null;--> statement-breakpoint
CREATE INDEX "documents_category_idx" ON "documents" USING btree ("category","sort");--> statement-breakpoint
CREATE INDEX "feedback_owner_idx" ON "feedback" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "feedback_status_idx" ON "feedback" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "message_recipients_inbox_idx" ON "message_recipients" USING btree ("account_id","read_at","created_at");--> statement-breakpoint
CREATE INDEX "messages_created_idx" ON "messages" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "prelim_docs_team_uq" ON "prelim_docs" USING btree ("team_id");--> statement-breakpoint
CREATE UNIQUE INDEX "prelim_docs_owner_uq" ON "prelim_docs" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "prelim_docs_status_idx" ON "prelim_docs" USING btree ("status");--> statement-breakpoint
CREATE INDEX "status_history_subject_idx" ON "status_history" USING btree ("subject_type","subject_id","created_at");--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_certificate_file_id_attachments_id_fk" FOREIGN KEY ("certificate_file_id") REFERENCES "public"."attachments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_commitment_file_id_attachments_id_fk" FOREIGN KEY ("commitment_file_id") REFERENCES "public"."attachments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_recommendation_file_id_attachments_id_fk" FOREIGN KEY ("recommendation_file_id") REFERENCES "public"."attachments"("id") ON DELETE set null ON UPDATE no action;