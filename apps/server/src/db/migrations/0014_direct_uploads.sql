CREATE TABLE "direct_uploads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"origin" text NOT NULL,
	"name" text NOT NULL,
	"size" bigint NOT NULL,
	"chunks" integer NOT NULL,
	"sha256" text NOT NULL,
	"part_sha256" jsonb NOT NULL,
	"storage_key" text NOT NULL,
	"multipart_id" text NOT NULL,
	"status" text DEFAULT 'OPEN' NOT NULL,
	"unique_no" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "direct_uploads" ADD CONSTRAINT "direct_uploads_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "direct_uploads_owner_idx" ON "direct_uploads" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "direct_uploads_open_idx" ON "direct_uploads" USING btree ("status","updated_at");