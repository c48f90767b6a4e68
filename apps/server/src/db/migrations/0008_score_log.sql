CREATE TABLE "score_log" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"round" text,
	"subject_type" text NOT NULL,
	"subject_id" text NOT NULL,
	"actor_id" uuid,
	"actor_name" text DEFAULT '' NOT NULL,
	"payload" jsonb NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "score_log_subject_idx" ON "score_log" USING btree ("subject_type","subject_id");--> statement-breakpoint
CREATE INDEX "score_log_kind_idx" ON "score_log" USING btree ("kind","round");