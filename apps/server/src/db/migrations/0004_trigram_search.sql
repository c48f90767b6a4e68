-- Trigram indexes make the admin lists' "contains" searches (ILIKE '%...%') use an index.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "accounts_username_trgm_idx" ON "accounts" USING gin ("username" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "accounts_phone_trgm_idx" ON "accounts" USING gin ("phone" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "login_records_identifier_trgm_idx" ON "login_records" USING gin ("identifier" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "operation_records_username_trgm_idx" ON "operation_records" USING gin ("username" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "teams_org_name_trgm_idx" ON "teams" USING gin ("org_name" gin_trgm_ops);