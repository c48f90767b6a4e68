import { sql } from 'drizzle-orm';
import { customType, timestamp } from 'drizzle-orm/pg-core';

// Column helpers shared by the tables of every owner (docs/architecture.md, "Database").

export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/**
 * jsonb read as the driver parsed it. Both drivers (pg, PGlite) already turn jsonb into values;
 * drizzle's own jsonb JSON.parses a string value a second time, so a setting saved as the string
 * "2025" came back as the number 2025 (and every other string cost a thrown exception).
 */
export const jsonValue = customType<{ data: unknown; driverData: unknown }>({
  dataType: () => 'jsonb',
  toDriver: (value) => JSON.stringify(value),
});

export const statusEnum = ['DRAFT', 'SUBMITTED', 'APPROVED', 'REVISING', 'REJECTED'] as const;

export const roundCheck = (col: unknown) => sql`${col} in ('PRELIMINARY', 'FINAL')`;
