CREATE TABLE "piece_uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" uuid NOT NULL,
	"origin" text NOT NULL,
	"name" text NOT NULL,
	"chunks" integer NOT NULL,
	"bytes_key" text NOT NULL,
	"pieces" jsonb NOT NULL,
	"claim" jsonb,
	"claimed_at" timestamp with time zone,
	"plan" jsonb,
	"result" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "piece_uploads" ADD CONSTRAINT "piece_uploads_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "piece_uploads_owner_idx" ON "piece_uploads" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "piece_uploads_updated_idx" ON "piece_uploads" USING btree ("updated_at");