CREATE TABLE "cut_confidence_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"round" text NOT NULL,
	"status" text NOT NULL,
	"top_n" integer NOT NULL,
	"per_track" boolean NOT NULL,
	"seed" bigint NOT NULL,
	"rounds" integer NOT NULL,
	"rule" jsonb NOT NULL,
	"fingerprint" text NOT NULL,
	"result" jsonb,
	"error" text,
	"actor_id" uuid,
	"actor_name" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "cut_confidence_runs" ADD CONSTRAINT "cut_confidence_runs_actor_id_accounts_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cut_confidence_runs_round_idx" ON "cut_confidence_runs" USING btree ("round","started_at");