ALTER TABLE "score_log" ADD COLUMN "v" smallint DEFAULT 1 NOT NULL;
--> statement-breakpoint
CREATE TABLE "score_log_anchors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"round" text NOT NULL,
	"result_version_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"seq" bigint NOT NULL,
	"head_hash" text NOT NULL,
	"merkle_root" text NOT NULL,
	"news_id" uuid,
	"published_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "score_log_anchors_version_uq" ON "score_log_anchors" USING btree ("result_version_id");
--> statement-breakpoint
CREATE INDEX "score_log_anchors_seq_idx" ON "score_log_anchors" USING btree ("seq");
