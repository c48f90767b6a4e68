import { boolean, index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './auth.js';
import { createdAt, updatedAt } from './columns.js';

// Owned by modules/admin (docs/architecture.md, "Database"): only that module reads or writes these tables;
// the others read its read model or call its service.

export const roles = pgTable('roles', {
  id: uuid('id').primaryKey().defaultRandom(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  description: text('description'),
  /** Built-in roles (SUPER_ADMIN) cannot be edited or deleted. */
  builtin: boolean('builtin').notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const accountRoles = pgTable(
  'account_roles',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'restrict' }),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.roleId] }), index('account_roles_role_idx').on(t.roleId)],
);

export const menus = pgTable('menus', {
  code: text('code').primaryKey(),
  parentCode: text('parent_code'),
  name: text('name').notNull(),
  nameEn: text('name_en').notNull(),
  path: text('path').notNull(),
  icon: text('icon'),
  sort: integer('sort').notNull().default(0),
});

export const buttons = pgTable('buttons', {
  code: text('code').primaryKey(),
  name: text('name').notNull(),
  menuCode: text('menu_code')
    .notNull()
    .references(() => menus.code, { onDelete: 'cascade' }),
});

export const roleMenus = pgTable(
  'role_menus',
  {
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    menuCode: text('menu_code')
      .notNull()
      .references(() => menus.code, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.menuCode] })],
);

export const roleButtons = pgTable(
  'role_buttons',
  {
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    buttonCode: text('button_code')
      .notNull()
      .references(() => buttons.code, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.buttonCode] })],
);
