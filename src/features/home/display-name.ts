import type { Customer } from '../../../api/customer.ts';

/** The name a customer is greeted with: the business name for a company, else first and last name. */
export function customerDisplayName(customer: Pick<Customer, 'customerType' | 'businessName' | 'firstName' | 'lastName'>): string {
  if (customer.customerType === 'business' && customer.businessName) return customer.businessName;
  return `${customer.firstName} ${customer.lastName}`.trim();
}
