/**
 * The access right each named method needs (issue 11 finding 5), beside the contract: a Record over
 * every method name, so a method added to the registry without a line here fails the typecheck.
 *
 * The rights of a user to a company are document 1 §4's levels (api/customer.ts AccessRight):
 * 0 none, 1 read, 2 full, 3 initiate, 4 confirmed, 5 uploading (also the authorised-user level).
 * The platform enforces the table before the handler runs whenever a call acts for a customer
 * other than the caller's own (fromCustomerId or the Customer-Id header, document 1 §6):
 * - public: anyone, no token (a signed-in caller naming a company still needs some access to it);
 * - self: the signed-in user's own matters (their password, terms, language, login history,
 *   reference data): any access to the company named (1-5);
 * - read: reads the company's data: any access (1-5);
 * - change: changes the company's profile and documents: anything above read-only (2-5; 5 is the
 *   uploading level, which exists to provide documents);
 * - money: opens accounts or moves or stops the company's money: 2 full, 3 initiate, 4 confirmed
 *   (as the money-permission flags, server/modules/transfers/permissions.ts); administrators get
 *   no money rights over a customer from being administrators;
 * - manage: manages who acts for the company and its structure (access rights, inviting users,
 *   removing representatives, api/business.ts): 2 full only; the owner acts for their own company
 *   and needs no right; administrators may (document 3 §6: they may force a representative's removal);
 * - admin: administrators only (the method's access is 'admin').
 * Acting for one's own customer needs no right. No row, or right 0, answers ENOA; a row whose
 * right is too low answers 13.
 */
import { AccessRight } from './customer.ts';
import type { MethodName } from './registry.ts';

export type RequiredRight = 'public' | 'self' | 'read' | 'change' | 'money' | 'manage' | 'admin';

/** The access rights to a company that satisfy each requirement (administrators: see rightAllows). */
export const RIGHTS_ALLOWED: Record<Exclude<RequiredRight, 'admin'>, readonly number[]> = {
  public: [AccessRight.read, AccessRight.full, AccessRight.initiate, AccessRight.confirmed, AccessRight.uploading],
  self: [AccessRight.read, AccessRight.full, AccessRight.initiate, AccessRight.confirmed, AccessRight.uploading],
  read: [AccessRight.read, AccessRight.full, AccessRight.initiate, AccessRight.confirmed, AccessRight.uploading],
  change: [AccessRight.full, AccessRight.initiate, AccessRight.confirmed, AccessRight.uploading],
  money: [AccessRight.full, AccessRight.initiate, AccessRight.confirmed],
  manage: [AccessRight.full],
};

/** Who acts for a company other than their own: an administrator, or a user with these rights (0 or none: no access). */
export type ActingAccess = { kind: 'admin' } | { kind: 'user'; rights: number };

/** The answer for a call acting for another customer: allowed, ENOA (no access) or 13 (rights too low). */
export function rightAllows(required: RequiredRight, access: ActingAccess): 'allowed' | 'ENOA' | '13' {
  if (access.kind === 'admin') return required === 'money' ? '13' : 'allowed';
  if (access.rights <= AccessRight.none) return 'ENOA';
  if (required === 'admin') return '13';
  return RIGHTS_ALLOWED[required].includes(access.rights) ? 'allowed' : '13';
}

export const RightsMessages = {
  noAccess: 'No access to this customer',
  readOnly: 'Your access to this customer is read-only',
  tooLow: 'Your access rights to this customer do not allow this',
  adminNoMoney: 'Administrators do not move or open a customer’s money',
} as const;

export const methodRights: Record<MethodName, RequiredRight> = {
  // customer.ts: who is signed in and for whom they may act
  getCustomerInfo: 'read',
  userAccessList: 'self', // the user's own access rows
  userAccessInfoGet: 'self', // the user's own access to the customer in the body
  termsList: 'self',
  termsAccept: 'self', // the user's own acceptance, recorded for their own customer
  customerLanguageUpdate: 'self', // the user's own customer's language
  // dictionaries.ts: reference data
  dictionaries: 'public',
  dictionaryBirthCountries: 'public',
  dictionaryCurrencies: 'public',
  states: 'public',
  dictionaryOccupation: 'public',
  dictionaryOccupation2: 'public',
  dictionaryTransactionType: 'public',
  dictionaryPersonalAgreements: 'public',
  dictionaryPersonalEstimatedMonthlyDeposits: 'public',
  dictionaryDocumentTypes: 'public',
  dictionaryCustomerAddressDocumentTypes: 'self', // reference data behind sign-in, nothing of the company's
  dictionaryPersonalSourceOfFunds: 'public',
  dictionaryPersonalSourceOfFunds2: 'public',
  dictionaryEmployeeSourceOfFunds: 'public',
  dictionaryBusinessSourceOfFunds: 'public',
  dictionaryPersonalPurposeOfAccount: 'public',
  dictionaryBusinessPurposeOfAccount: 'public',
  dictionaryIndustry: 'public',
  dictionaryPersonalAdditionalQuestion: 'public',
  dictionaryBusinessAdditionalQuestion: 'public',
  dictionaryTaxNumbers: 'public',
  // accounts.ts
  balanceInquiry: 'read',
  // admin.ts
  adminCustomerList: 'admin',
  // security.ts
  loginHistory: 'self',
  ipInfo: 'public',
  // registration.ts, recovery.ts: before sign-in
  checkEmail: 'public',
  accountCreate: 'public',
  activateAccount: 'public',
  businessAccountActivate: 'public',
  employeeAccountActivate: 'public',
  activationCodeResend: 'public',
  // business-registration.ts: the wizard's draft, before sign-in (the device secret is the capability)
  businessRegistrationDraftGet: 'public',
  businessRegistrationDraftSave: 'public',
  businessRegistrationDraftDelete: 'public',
  passwordChangeRequest: 'public',
  passwordCodeCheck: 'public',
  passwordChangeWithCode: 'public',
  accountRecoveryRequest: 'public',
  accountRecoveryDocuments: 'public', // the task id is the capability (api/recovery.ts)
  accountRecoveryCancel: 'public', // the mailed cancel code is the proof
  accountRecoveryStatus: 'public',
  changePassword: 'self',
  changePasswordConfirm: 'self',
  passwordChangeCancel: 'self',
  // transfers.ts
  moneyPermissions: 'read', // the flags the caller holds for the company: a read
  addCurrency: 'money', // opens a company account (issue 11: a viewer could)
  createWallet: 'money',
  exchangeRate: 'read',
  defaultExchangeRates: 'read',
  transferFee: 'read',
  transferMaxAmount: 'read',
  customerLimits: 'read',
  checkPayee: 'read',
  transferBetweenAccounts: 'money',
  transferP2p: 'money',
  approveTransfer: 'money',
  resendApproval: 'money',
  transferCancel: 'money',
  transferStatus: 'read',
  recentTransfers: 'read',
  beneficiaryList: 'read',
  paymentTemplateList: 'read',
  preapprovedList: 'read',
  preapprovedCancel: 'money', // stops the company's recurring payments (issue 11: a viewer could)
  // history.ts
  transactionHistory: 'read',
  transactionDetail: 'read',
  balanceHistory: 'read',
  transactionHistoryExport: 'read', // a file of what the caller may already read
  transactionHistoryExportStatus: 'read',
  transactionHistoryExportSend: 'read', // mails that file: nothing the caller could not download
  transactionHistoryExportList: 'read',
  statementPeriods: 'read',
  // documents.ts
  customerJumioDocumentCreate: 'change',
  documentsInquiry: 'read',
  customerDocumentDelete: 'change',
  identityGet: 'read',
  adminReviewQueue: 'admin',
  adminReassignDocumentList: 'admin',
  adminDocumentDecide: 'admin',
  adminDocumentAssign: 'admin',
  adminDocumentRemove: 'admin',
  adminIdentityJobDecide: 'admin',
  // profile.ts: the company's contacts, addresses, tax and KYC details
  profileInquiry: 'read',
  addPhone: 'change',
  replacePhone: 'change',
  phoneConfirmRequest: 'change',
  confirmPhone: 'change',
  emailInquiry: 'read',
  addEmail: 'change',
  deleteEmail: 'change',
  setPrimaryEmail: 'change',
  confirmRequestEmail: 'change',
  confirmEmail: 'change',
  usernameChangeRequestCreate: 'change', // refused to a read-only company user as before (withWriteAccess)
  usernameChangeRequestDelete: 'change',
  usernameChangeRequestEmailConfirm: 'change',
  usernameChangeRequestIdentityJob: 'change',
  usernameChangeRequestCompleted: 'change',
  addressInquiry: 'read',
  customerAddressCreateOrReplace: 'change',
  customerAddressDelete: 'change',
  confirmAddress: 'change',
  customerTaxNumberUpdate: 'change',
  kycInfoUpdate: 'change',
  kycCustomerInfoGet: 'read',
  kycRequestGet: 'read',
  kycCustomerPersonalInfoUpdate: 'change',
  customerLimitReasonGet: 'read',
  dueDiligenceInfoGet: 'read',
  userStatusGet: 'read',
  adminCustomerLimit: 'admin',
  adminCustomerUnlimit: 'admin',
  financialDetailUpdate: 'admin',
  dueDiligenceUpdate: 'admin',
  adminRecoveryTaskList: 'admin',
  adminRecoveryTaskDecide: 'admin',
  // external transfers' reference data (api/external.ts): the same for every customer
  transferMethods: 'self',
  extraParams: 'self',
  banksList: 'self',
  branchCodeOptions: 'self',
  instantKeyInfo: 'self',
  instantBankList: 'self',
  swiftLookup: 'self',
  ibanLookup: 'self',
  blockedBinList: 'self',
  // how the company's accounts are paid into (api/funding.ts): its data; marking one viewed is the user's own
  paymentInstructions: 'read',
  paymentInstructionMarkViewed: 'self',
  // payouts over the rails (api/payouts.ts): money out, as the other transfers; their fees are reads
  wireTransfer: 'money',
  massP2pFile: 'money',
  massP2pText: 'money',
  massExternalFile: 'money',
  massSampleLinkList: 'read',
  batchTransferList: 'read',
  batchFileView: 'read',
  eftTransfer: 'money',
  octTransfer: 'money',
  cryptoTransfer: 'money',
  instantTransfer: 'money',
  interacTransfer: 'money',
  wireFee: 'read',
  eftFee: 'read',
  octFee: 'read',
  cryptoFee: 'read',
  instantFee: 'read',
  interacFee: 'read',
  // global pay (api/global-pay.ts): the sender's batch moves the company's money; its reads are reads;
  // the payee's calls are public (no sign-in: the payment's secret is their key)
  globalPayUpload: 'money',
  globalPayBatchGet: 'read',
  globalPayBatchStatus: 'read',
  globalPayUpdatePayments: 'money',
  globalPayBatchAdd: 'money',
  globalPayBatchUpdate: 'money',
  globalPayBatchUpdateFull: 'money',
  globalPayBatchRemove: 'money',
  globalPayBatchRestore: 'money',
  globalPaySetFeeSide: 'money',
  globalPaySetMethodForbidden: 'money',
  globalPayCountryMethods: 'self',
  globalPayBatchSubmit: 'money',
  globalPayBatchReject: 'money',
  globalPayBatchCancel: 'money',
  globalPayApprove: 'money',
  globalPayApproveBatch: 'money',
  globalPayP2pMethods: 'read',
  globalPayP2pMeta: 'read',
  globalPayP2pSubmit: 'money',
  globalPaymentDetails: 'public',
  globalPaymentCountries: 'public',
  globalPaymentMethods: 'public',
  globalPaymentMeta: 'public',
  globalPaymentLastWithdrawals: 'public',
  globalPaymentWithdrawalDetails: 'public',
  globalPaymentBinBlacklist: 'public',
  globalPaymentInstantDetails: 'public',
  globalPaymentInstantBankList: 'public',
  globalPaymentExtraParams: 'public',
  globalPaymentBinLookup: 'public',
  globalPaymentSwiftLookup: 'public',
  globalPaymentIbanLookup: 'public',
  globalPaymentSubmit: 'public',
  globalPaymentApprove: 'public',
  globalPaymentResendCode: 'public',
  globalPaymentCancel: 'public',
  // cards.ts: a card is an account; applying, fees and moving its balance are money, its secrets are the holder's
  applyForCardInfo: 'read',
  cardApply: 'money',
  cardConfirmRequirements: 'read',
  cardConfirm: 'money',
  cardPause: 'money',
  cardUnpause: 'money',
  cardBlock: 'money',
  cardReissue: 'money',
  upgradeShipping: 'money',
  setAlias: 'change',
  cardActivationData: 'read',
  cardActivate: 'money',
  changePin: 'money',
  showPin: 'money',
  getPin: 'money',
  binInfo: 'read',
  addressReplacementCompatibility: 'read',
  debitcardAuthorizationListGet: 'read',
  currentAccountAuthorizationListGet: 'read',
  // business-approvals.ts: maker-checker. 'money' here (rights 1 and 5 refused by the table); the
  // service also refuses 3 (initiate) and 4 (confirmed): only right 2 or the company's owner decides
  businessTransactionRequestList: 'money',
  businessTransactionRequestApprove: 'money',
  businessMassApprove: 'money',
  businessApprovalConfirm: 'money',
  // business.ts: the company's structure and users are reads; a representative's address a change;
  // who acts for the company, with which rights, and who is in its structure: manage
  businessAuthorizedUserGet: 'read',
  businessInfoGet: 'read',
  businessShareholderList: 'read',
  businessDirectorList: 'read',
  businessUserList: 'read',
  businessUltimateBeneficiaryOwnerList: 'read',
  businessAccessRightsList: 'read',
  businessPotentialUserList: 'read',
  businessRepresentativeInfoGet: 'read',
  businessRepresentativeAddressCreate: 'change',
  businessRepresentativeAddressConfirm: 'change',
  businessAccessRightsUpdate: 'manage',
  representativeAdd: 'manage',
  representativeDelete: 'manage',
  businessJumioDocumentCreate: 'change', // a representative's document, as the company's own documents
  // business-declarations.ts: statements are the company's compliance records ('change'; a
  // declaration also only by the representative themself); the resolution and the representative's
  // link concern who acts for the company ('manage'); the representative's own call is authorised
  // by its link (fromEmail/authSecret), not by a company right
  businessDeclarationsGet: 'read',
  businessDeclarationsSend: 'change',
  prohibitedEscortStatementGet: 'read',
  prohibitedEscortStatementSend: 'change',
  resolutionGet: 'read',
  resolutionSend: 'manage',
  businessRepresentativeLinkSend: 'manage',
  identityVerificationRepresentative: 'public',
  // tax-certification.ts: the personal ones are the caller's own (or the representative's by their
  // link, checked inside); a company's certification is read with any access and given by full rights
  personalFatcaCrsCertificationGet: 'public',
  personalFatcaCrsCertificationUpdate: 'public',
  personalWFormUpload: 'public',
  personalLossOfNationalityCertificateUpload: 'public',
  businessFatcaCrsCertificationGet: 'read',
  businessFatcaCrsCertificationUpdate: 'manage',
  businessWFormUpload: 'manage',
  // support.ts: the agents' desk in the administrator's area
  supportDeskQueue: 'admin',
  supportDeskTicket: 'admin',
  supportDeskAssign: 'admin',
  supportDeskReply: 'admin',
  supportDeskClose: 'admin',
  // notifications.ts: the acting customer's notification centre is read with any access; the
  // announcements' read state, choices and the notification settings are the user's own
  announcementsList: 'self',
  announcementGet: 'self',
  announcementAccept: 'self',
  notificationsCount: 'read',
  notificationsList: 'read',
  notificationsRead: 'read',
  notificationSettingsGet: 'self',
  notificationSettingsSet: 'self',
};
