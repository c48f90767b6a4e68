CREATE TABLE "expert_conflicts" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"org_credit_code" text,
	"declared_orgs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "promotions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"mode" text NOT NULL,
	"n" integer,
	"rule" jsonb NOT NULL,
	"ranking" jsonb NOT NULL,
	"promoted_ids" jsonb NOT NULL,
	"actor_id" uuid,
	"actor_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_assignments" (
	"round" text NOT NULL,
	"prelim_id" uuid NOT NULL,
	"group_id" uuid NOT NULL,
	"source" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"actor_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_assignments_round_prelim_id_pk" PRIMARY KEY("round","prelim_id"),
	CONSTRAINT "review_assignments_round_ck" CHECK ("review_assignments"."round" in ('PRELIMINARY', 'FINAL'))
);
--> statement-breakpoint
CREATE TABLE "review_extra_experts" (
	"round" text NOT NULL,
	"prelim_id" uuid NOT NULL,
	"expert_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"actor_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_extra_experts_round_prelim_id_expert_id_pk" PRIMARY KEY("round","prelim_id","expert_id")
);
--> statement-breakpoint
CREATE TABLE "review_group_experts" (
	"group_id" uuid NOT NULL,
	"round" text NOT NULL,
	"expert_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_group_experts_group_id_expert_id_pk" PRIMARY KEY("group_id","expert_id"),
	CONSTRAINT "review_group_experts_round_ck" CHECK ("review_group_experts"."round" in ('PRELIMINARY', 'FINAL'))
);
--> statement-breakpoint
CREATE TABLE "review_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"round" text NOT NULL,
	"name" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_groups_round_ck" CHECK ("review_groups"."round" in ('PRELIMINARY', 'FINAL'))
);
--> statement-breakpoint
CREATE TABLE "rubrics" (
	"round" text PRIMARY KEY NOT NULL,
	"criteria" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rubrics_round_ck" CHECK ("rubrics"."round" in ('PRELIMINARY', 'FINAL'))
);
--> statement-breakpoint
CREATE TABLE "score_sheet_revisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"sheet_id" uuid NOT NULL,
	"scores" jsonb NOT NULL,
	"total_half_points" integer NOT NULL,
	"comment" text NOT NULL,
	"submitted_at" timestamp with time zone NOT NULL,
	"returned_at" timestamp with time zone DEFAULT now() NOT NULL,
	"returned_by" uuid,
	"reason" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "score_sheets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"round" text NOT NULL,
	"prelim_id" uuid NOT NULL,
	"expert_id" uuid NOT NULL,
	"status" text NOT NULL,
	"scores" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"total_half_points" integer,
	"comment" text DEFAULT '' NOT NULL,
	"return_reason" text,
	"submitted_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "score_sheets_status_ck" CHECK ("score_sheets"."status" in ('DRAFT', 'SUBMITTED', 'RETURNED')),
	CONSTRAINT "score_sheets_round_ck" CHECK ("score_sheets"."round" in ('PRELIMINARY', 'FINAL'))
);
--> statement-breakpoint
ALTER TABLE "expert_conflicts" ADD CONSTRAINT "expert_conflicts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotions" ADD CONSTRAINT "promotions_actor_id_accounts_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_assignments" ADD CONSTRAINT "review_assignments_prelim_id_prelim_docs_id_fk" FOREIGN KEY ("prelim_id") REFERENCES "public"."prelim_docs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_assignments" ADD CONSTRAINT "review_assignments_group_id_review_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."review_groups"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_assignments" ADD CONSTRAINT "review_assignments_actor_id_accounts_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_extra_experts" ADD CONSTRAINT "review_extra_experts_prelim_id_prelim_docs_id_fk" FOREIGN KEY ("prelim_id") REFERENCES "public"."prelim_docs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_extra_experts" ADD CONSTRAINT "review_extra_experts_expert_id_accounts_id_fk" FOREIGN KEY ("expert_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_extra_experts" ADD CONSTRAINT "review_extra_experts_actor_id_accounts_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_group_experts" ADD CONSTRAINT "review_group_experts_group_id_review_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."review_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_group_experts" ADD CONSTRAINT "review_group_experts_expert_id_accounts_id_fk" FOREIGN KEY ("expert_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rubrics" ADD CONSTRAINT "rubrics_updated_by_accounts_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_sheet_revisions" ADD CONSTRAINT "score_sheet_revisions_sheet_id_score_sheets_id_fk" FOREIGN KEY ("sheet_id") REFERENCES "public"."score_sheets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_sheet_revisions" ADD CONSTRAINT "score_sheet_revisions_returned_by_accounts_id_fk" FOREIGN KEY ("returned_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_sheets" ADD CONSTRAINT "score_sheets_prelim_id_prelim_docs_id_fk" FOREIGN KEY ("prelim_id") REFERENCES "public"."prelim_docs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_sheets" ADD CONSTRAINT "score_sheets_expert_id_accounts_id_fk" FOREIGN KEY ("expert_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "review_assignments_group_idx" ON "review_assignments" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "review_extra_experts_expert_idx" ON "review_extra_experts" USING btree ("expert_id","round");--> statement-breakpoint
CREATE UNIQUE INDEX "review_group_experts_round_expert_uq" ON "review_group_experts" USING btree ("round","expert_id");--> statement-breakpoint
CREATE UNIQUE INDEX "review_groups_round_name_uq" ON "review_groups" USING btree ("round","name");--> statement-breakpoint
CREATE INDEX "score_sheet_revisions_sheet_idx" ON "score_sheet_revisions" USING btree ("sheet_id","returned_at");--> statement-breakpoint
CREATE UNIQUE INDEX "score_sheets_round_project_expert_uq" ON "score_sheets" USING btree ("round","prelim_id","expert_id");--> statement-breakpoint
CREATE INDEX "score_sheets_expert_idx" ON "score_sheets" USING btree ("expert_id","round","status");--> statement-breakpoint
CREATE INDEX "score_sheets_round_status_idx" ON "score_sheets" USING btree ("round","status");