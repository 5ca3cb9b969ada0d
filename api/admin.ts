/** Administrator reads (document 1 §2 admin overview, §6 administrator role). */
import * as v from 'valibot';
import { defineMethod, MAX_ID } from './method.ts';

export const ADMIN_CUSTOMER_PAGE_MAX = 50;

export const AdminCustomerSchema = v.object({
  customerId: v.number(),
  /** the company name of a business customer, else first and last name */
  name: v.string(),
  customerType: v.picklist(['personal', 'business']),
  verified: v.boolean(),
  limited: v.boolean(),
  /** ISO 8601 */
  customerCreationDate: v.string(),
});
export type AdminCustomer = v.InferOutput<typeof AdminCustomerSchema>;

/** Customers, newest first, one page at a time. */
export const adminCustomerList = defineMethod({
  name: 'adminCustomerList',
  access: 'admin',
  mutation: false,
  request: {
    page: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1, 'must be 1 or more'), v.maxValue(MAX_ID, 'is too large')), 1),
    pageSize: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1, 'must be 1 or more'), v.maxValue(ADMIN_CUSTOMER_PAGE_MAX, `must be ${ADMIN_CUSTOMER_PAGE_MAX} or less`)),
      20,
    ),
  },
  response: {
    customers: v.array(AdminCustomerSchema),
    total: v.number(),
    page: v.number(),
    pageSize: v.number(),
  },
});

export const adminMethods = { adminCustomerList };
