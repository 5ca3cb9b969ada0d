/** Customer info, access info and terms (document 1 §3, document 3 §3). */
import * as v from 'valibot';
import { defineMethod, Id, MAX_ID } from './method.ts';

/** Transaction approval mode (document 2): how a transfer is confirmed. */
export const approveModes = ['none', 'push', 'sms', 'otp', 'approvalCode'] as const;
/** Two-step verification mode codes: push 1, sms 2, otp 3, approvalCode 4 (document 1 §7). */
export const TwoStepMode = { push: 1, sms: 2, otp: 3, approvalCode: 4 } as const;

export const PermissionsSchema = v.record(v.string(), v.boolean());

export const CustomerSchema = v.object({
  customerType: v.picklist(['personal', 'business']),
  userId: v.number(),
  customerId: v.number(),
  login: v.string(),
  firstName: v.string(),
  lastName: v.string(),
  businessName: v.nullable(v.string()),
  transactionApproveMode: v.picklist(approveModes),
  /** 'no' means two-step sign-in is off */
  login2faMode: v.picklist(['no', 'otp', 'sms', 'push']),
  isAdmin: v.boolean(),
  isHaveRelatedAccounts: v.boolean(),
  useOldWeb: v.boolean(),
  oldWebUrl: v.nullable(v.string()),
  birthDay: v.nullable(v.string()),
  customerCreationDate: v.string(),
  residenceCountryCode: v.nullable(v.string()),
  taxId: v.nullable(v.string()),
  permissions: PermissionsSchema,
  verified: v.boolean(),
  limited: v.boolean(),
  dueDiligenceLevel: v.number(),
  isNeedPersonalInfoUpdate: v.boolean(),
  isNeedKyc: v.boolean(),
  /** The FATCA/CRS section needs an action (start-page rule 7). */
  isTaxSectionActionRequired: v.boolean(),
  twoStepVerificationMode: v.nullable(v.number()),
  /** UI language stored in settings: en es pt ro ru ua (ua is Ukrainian, uk in the UI). */
  language: v.picklist(['en', 'es', 'pt', 'ro', 'ru', 'ua']),
  /** 1 personal, 2 business owner, 3 authorised user, 4 administrator */
  userType: v.picklist([1, 2, 3, 4]),
});
export type Customer = v.InferOutput<typeof CustomerSchema>;

/** Access rights: 0 none, 1 read, 2 full, 3 initiate, 4 confirmed, 5 uploading / authorised user. */
export const AccessRight = { none: 0, read: 1, full: 2, initiate: 3, confirmed: 4, uploading: 5 } as const;
export const accessRightSchema = v.picklist([0, 1, 2, 3, 4, 5]);

export const CustomerAccessSchema = v.object({
  /** the access entry id */
  id: v.number(),
  /** the company (customer) this user may act for */
  customerId: v.number(),
  customerName: v.string(),
  customerUsername: v.string(),
  employeeFirstName: v.string(),
  employeeLastName: v.string(),
  accessRights: accessRightSchema,
});
export type CustomerAccess = v.InferOutput<typeof CustomerAccessSchema>;

export const getCustomerInfo = defineMethod({
  name: 'getCustomerInfo',
  access: 'customer',
  mutation: false,
  request: {},
  response: { customer: CustomerSchema },
});

export const userAccessList = defineMethod({
  name: 'userAccessList',
  access: 'customer',
  mutation: false,
  request: {},
  response: { customerAccesses: v.array(CustomerAccessSchema) },
});

export const userAccessInfoGet = defineMethod({
  name: 'userAccessInfoGet',
  access: 'customer',
  mutation: false,
  request: { customerId: Id },
  response: {
    accessInfo: v.object({
      id: v.number(),
      permissions: PermissionsSchema,
      accessRights: accessRightSchema,
      /** 2 director; 6 and 9 shareholder; 8 owner; other ids authorised users */
      businessRepresentativePositionIds: v.array(v.number()),
      accessList: v.object({ balanceInfo: v.boolean() }),
      isNeedKyc: v.boolean(),
      taxResidencySelfCertificationDocumentStatus: v.picklist(['none', 'pending', 'validated', 'rejected']),
      employeeFirstName: v.string(),
      employeeLastName: v.string(),
      customerUsername: v.string(),
      customerName: v.string(),
    }),
  },
});

export const termsList = defineMethod({
  name: 'termsList',
  access: 'customer',
  mutation: false,
  request: {},
  response: { terms: v.array(v.object({ id: v.number(), version: v.number(), title: v.string(), url: v.string() })) },
});

export const termsAccept = defineMethod({
  name: 'termsAccept',
  access: 'customer',
  mutation: true,
  request: {
    terms: v.pipe(
      v.array(v.object({ id: Id, version: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_ID)) })),
      v.minLength(1),
    ),
  },
  response: {},
});

/** Stores the UI language in settings (`ua` for Ukrainian). */
export const customerLanguageUpdate = defineMethod({
  name: 'customerLanguageUpdate',
  access: 'customer',
  mutation: true,
  request: { language: v.picklist(['en', 'es', 'pt', 'ro', 'ru', 'ua']) },
  response: {},
});

export const customerMethods = {
  getCustomerInfo,
  userAccessList,
  userAccessInfoGet,
  termsList,
  termsAccept,
  customerLanguageUpdate,
};
