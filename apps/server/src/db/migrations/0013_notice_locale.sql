ALTER TABLE "accounts" ADD COLUMN "locale" text DEFAULT 'zh-CN' NOT NULL;--> statement-breakpoint
ALTER TABLE "message_templates" ADD COLUMN "subject_en" text;--> statement-breakpoint
ALTER TABLE "message_templates" ADD COLUMN "body_en" text;--> statement-breakpoint
ALTER TABLE "message_templates" ADD COLUMN "sms_text_en" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "event_code" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "vars" jsonb;