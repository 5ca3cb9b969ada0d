/**
 * The one drizzle schema: every module's tables, re-exported. drizzle-kit reads this file to
 * generate migrations (server/db/migrations); both drivers (PGlite, node-postgres) use it.
 */
export * from '../modules/dictionaries/dictionaries.tables.ts';
export * from '../modules/customers/customers.tables.ts';
export * from '../modules/accounts/accounts.tables.ts';
export * from '../modules/auth/auth.tables.ts';
export * from '../modules/platform/platform.tables.ts';
export * from '../modules/transfers/transfers.tables.ts';
export * from '../modules/transfers/mass.tables.ts';
export * from '../modules/transfers/global-pay.tables.ts';
export * from '../modules/transfers/business-approvals.tables.ts';
export * from '../modules/history/history.tables.ts';
export * from '../modules/profile/profile.tables.ts';
export * from '../modules/push/push.tables.ts';
export * from '../modules/recovery/recovery.tables.ts';
export * from '../modules/rails/rails.tables.ts';
export * from '../modules/cards/cards.tables.ts';
export * from '../modules/business/business.tables.ts';
export * from '../modules/business/declarations.tables.ts';
export * from '../modules/registration/business-registration.tables.ts';
export * from '../modules/tax/tax.tables.ts';
export * from '../modules/esign/esign.tables.ts';
export * from '../modules/contracts/contracts.tables.ts';
export * from '../modules/support/support.tables.ts';
export * from '../modules/notifications/notifications.tables.ts';
