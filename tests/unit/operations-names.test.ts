/**
 * The wire contract under the specification's names (issue 11): every implemented named method is
 * served under the name ../shared/spec/operations.tsv lists for it (column 5), so a provider's own
 * backend that speaks the spec's names serves this app. A method is either
 * - a listed wire name, or
 * - one of our own names, each with its reason in OWN_NAMES: a row whose name is `-` (the spec
 *   gives no single name) or an operation the spec does not list at all.
 * A method renamed away from its listed name (e.g. phoneConfirm again) is neither, and fails here.
 *
 * The renames of issue 11 (old name -> listed name, the spec's wording):
 *
 *   accounts.account             -> balanceInquiry            2§7 "balance inquiry (returns accounts.account)"
 *   accountAddCurrency           -> addCurrency               2§7 "add currency {currencyCode}"
 *   walletCreate                 -> createWallet              2§7 "create wallet {currencyCode, accountId}"
 *   exchangeRatesDefault         -> defaultExchangeRates      2§7 "default exchange rates"
 *   transferApprove              -> approveTransfer           2§7 "approve transfer {trxid, approvalCode}"
 *   transferApprovalResend       -> resendApproval            2§7 "resend approval"
 *   passwordChange               -> changePassword            2§7 "change password"
 *   passwordChangeConfirm        -> changePasswordConfirm     2§7 "change password confirm {code, requestKey}"
 *   phoneAdd                     -> addPhone                  1§7 "add phone"
 *   phoneReplace                 -> replacePhone              1§7 "replace phone"
 *   phoneConfirm                 -> confirmPhone              1§7 "confirm phone: phoneId plus verification ..."
 *   emailAdd                     -> addEmail                  3§7 "add ... email"
 *   emailDelete                  -> deleteEmail               3§7 "delete ... email"
 *   emailSetPrimary              -> setPrimaryEmail           3§7 "set primary ... email"
 *   emailConfirmRequest          -> confirmRequestEmail       3§7 "confirm request ... email"
 *   emailConfirm                 -> confirmEmail              3§7 "confirm email (emailId, confirmationCode)"
 *   addressConfirm               -> confirmAddress            1§7, 3§7 printed
 *   usernameChangeEmailConfirm   -> usernameChangeRequestEmailConfirm  1§7 "username change request: email confirm"
 *   customerDocumentCreate       -> customerJumioDocumentCreate 1§7 "customer jumio document create, optionally isDueDiligence 1"
 *   adminCustomerDocuments       -> adminReassignDocumentList 3§7 printed, {customerId}: a customer's documents to reassign or remove
 *   adminDocumentReassign        -> adminDocumentAssign       3§7 "admin document assign"
 *   adminFinancialInfoUpdate     -> financialDetailUpdate     1§6, 3§7 "financial detail update"
 *   adminDueDiligenceUpdate      -> dueDiligenceUpdate        1§6, 3§7 "due diligence update"
 *
 * (rename-codemod: skip-file. The old names above are history, not calls.)
 *
 * Added by issue 11: usernameChangeRequestIdentityJob, usernameChangeRequestCompleted, states,
 * beneficiaryList, paymentTemplateList.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { methods } from '../../api/registry.ts';

/**
 * The spec's list, copied into the repository (docs/spec/) from ../shared/spec/ so the check runs
 * wherever the repository is checked out; refresh the copy when the spec's list changes.
 */
const SPEC = fileURLToPath(new URL('../../docs/spec/operations.tsv', import.meta.url));

interface Row {
  area: string;
  where: string;
  wording: string;
  given: string;
  name: string;
}

function readOperations(): Row[] {
  return readFileSync(SPEC, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .slice(1) // the header
    .map((line) => {
      const [area, where, wording, given, name] = line.split('\t');
      return { area: area!, where: where!, wording: wording!, given: given!, name: name!.trim() };
    });
}

/**
 * Our own names, with why each is not a listed name. `row` names the operations.tsv wording when
 * the spec lists the operation without a single name (`-`).
 */
const OWN_NAMES: Record<string, { row?: string; why: string }> = {
  // '-' rows: the wording gives no single name.
  transferBetweenAccounts: { row: 'between accounts', why: 'own-account transfer; "between accounts" alone names no action' },
  transferFee: { row: 'between-accounts fee {amount, toAccountId, fromAccountId}', why: 'one fee call for every transfer kind' },
  transferMaxAmount: { row: 'max amount', why: 'one max-amount call for every transfer kind' },
  transferP2p: { row: 'p2p', why: '"p2p" alone names no action' },
  transactionHistoryExportStatus: { row: 'export status {exportId}', why: 'an export of the transaction history' },
  transactionHistoryExportSend: { row: 'export send to email {exportId, email}', why: 'an export of the transaction history' },
  transactionHistoryExportList: { row: 'export list {accountId, source monthly}', why: 'an export of the transaction history' },
  statementPeriods: { row: 'account statements (account, year, month)', why: 'the periods with a statement; the statement itself is a REST file' },
  preapprovedList: { row: 'pre-approved payments list', why: 'the wording is a phrase with a hyphen, not a name' },
  preapprovedCancel: { row: 'pre-approved payments cancel', why: 'the wording is a phrase with a hyphen, not a name' },
  // Operations the spec does not list.
  accountRecoveryRequest: { why: 'account recovery screens (1§2 /account-recovery/); their calls are not named' },
  accountRecoveryDocuments: { why: 'the identity document and selfie of a recovery task (issue 11: recovery by personal data is reviewed by a person); the spec names no call' },
  accountRecoveryCancel: { why: 'the account owner cancels a recovery task from the mailed notice (issue 11); the spec names no call' },
  accountRecoveryStatus: { why: 'account recovery screens (1§2 /account-recovery/); their calls are not named' },
  businessRegistrationDraftGet: { why: 'the business registration draft kept on the platform per e-mail and device (3§4 "the draft persists"; issue 17 item 1); the spec names no call' },
  businessRegistrationDraftSave: { why: 'the business registration draft kept on the platform per e-mail and device (3§4 "the draft persists"; issue 17 item 1); the spec names no call' },
  businessRegistrationDraftDelete: { why: 'clearing the business registration draft after its confirmation (3§4); the spec names no call' },
  businessRepresentativeLinkSend: { why: 'sends a representative who is not a user the authSecret link of /self-certification-representative (1§7 fromEmail/authSecret; 3§6); the spec names no call that issues it' },
  employeeAccountActivate: { why: 'the activationEmployee query action (1§2); the spec names only the personal and business activation calls' },
  dictionaryTaxNumbers: { why: 'the per-country tax-number table of 3§9 served to the app; the spec names no call for it' },
  customerLanguageUpdate: { why: 'stores the language chosen in settings; not named by the spec' },
  termsList: { why: 'the terms to accept of a TE answer (1§8), for a session that signs in with pending terms' },
  userStatusGet: { why: 'the User status entity of 1§3 in one read (the spec assembles it from several calls)' },
  phoneConfirmRequest: { why: 'the SMS code for confirmPhone without PKCE; the spec\'s way is REST verification/phones/{phoneId}/verify' },
  customerDocumentDelete: { why: 'the customer withdraws an unreviewed upload; the spec lists only the administrator\'s remove' },
  passwordChangeCancel: { why: 'withdraws a pending changePassword before its confirm; not named by the spec' },
  moneyPermissions: { why: 'the permission flags of 2§6; how they load is not shown' },
  balanceHistory: { why: 'the home screen\'s balance chart; not named by the spec' },
  cardApply: { why: 'the card application of /add-card (issue 16 item 1); the spec names only its info call (applyForCardInfo)' },
  cardConfirm: { why: 'the confirmation /confirm-card/{cardId} ends in; the spec names only cardConfirmRequirements' },
  transactionDetail: { why: 'one history row in full for the transaction detail page (issue 13); not named by the spec' },
  transferStatus: { why: 'the state of one transfer after its approval; not named by the spec' },
  transferCancel: { why: 'withdraws a transfer waiting for approval; not named by the spec' },
  adminReviewQueue: { why: 'the administrator\'s review queue of the built-in platform (1§6: other admin rules not shown)' },
  adminRecoveryTaskList: { why: 'recovery tasks in the administrator\'s review queue (issue 11; 1§6: other admin rules not shown)' },
  adminRecoveryTaskDecide: { why: 'the administrator\'s decision on a recovery task (issue 11; 1§6: other admin rules not shown)' },
  adminCustomerList: { why: 'the administrator\'s customer search (1§6: other admin rules not shown)' },
  adminCustomerLimit: { why: 'the administrator limits an account (1§4: limited/verified decided by the server, not shown)' },
  adminCustomerUnlimit: { why: 'the administrator lifts a limit (1§4: not shown)' },
  adminDocumentDecide: { why: 'the administrator\'s review decision on a document (not shown)' },
  adminIdentityJobDecide: { why: 'the administrator\'s decision on a job of the built-in identity provider (not shown)' },
  notificationsList: { why: 'the notification centre the count (2§7 "notifications count") counts: 3§3 Notification is listed, its read not shown' },
  notificationsRead: { why: 'marks the centre\'s notifications read (3§3 Notification status); the spec shows no call' },
  supportDeskQueue: { why: 'the agents\' desk of the built-in support desk in the administrator\'s area (issue 19 item 3); the spec shows the customer\'s side only' },
  supportDeskTicket: { why: 'the agents\' desk: a ticket with its threads and internal notes (issue 19 item 3); not named by the spec' },
  supportDeskAssign: { why: 'the agents\' desk: assigns a ticket (issue 19 item 3); not named by the spec' },
  supportDeskReply: { why: 'the agents\' desk: a reply or an internal note (issue 19 item 3); not named by the spec' },
  supportDeskClose: { why: 'the agents\' desk: closes a ticket, as closed-no-reply too (3§4 status mapping; issue 19 item 3); not named by the spec' },
  personalLossOfNationalityCertificateUpload: { why: 'the certificate of loss of nationality of the unauthorised representative (3§6 loss-of-nationality action); the link has no token for the document upload, and the spec names no call' },
};

describe('operations.tsv names', () => {
  const rows = readOperations();
  const listed = new Set(rows.map((r) => r.name).filter((n) => n !== '-'));
  const dashRows = new Set(rows.filter((r) => r.name === '-').map((r) => r.wording));
  const implemented = Object.keys(methods);

  it('reads the list the spec gives (249 operations)', () => {
    // The issue counts 249; the file holds 259 rows (some wordings share a name or have none).
    expect(rows.length).toBeGreaterThanOrEqual(249);
    for (const r of rows) expect(r.name, r.wording).toMatch(/^(-|[a-z][A-Za-z0-9]*)$/);
  });

  it('serves every implemented method under its listed name, or under an own name with a reason', () => {
    const strays = implemented.filter((name) => !listed.has(name) && !Object.hasOwn(OWN_NAMES, name));
    expect(strays, 'methods served under a name operations.tsv does not list (rename them, or add a reason)').toEqual([]);
  });

  it('keeps the own names honest: each is implemented, is not a listed name, and its `-` row exists', () => {
    for (const [name, own] of Object.entries(OWN_NAMES)) {
      expect(implemented, `${name} is not implemented any more: drop it from OWN_NAMES`).toContain(name);
      expect(listed.has(name), `${name} is a listed name`).toBe(false);
      if (own.row !== undefined) expect(dashRows.has(own.row), `no '-' row "${own.row}"`).toBe(true);
      expect(own.why.length).toBeGreaterThan(10);
    }
  });

  it('each method definition carries the name it is served under', () => {
    for (const [key, def] of Object.entries(methods)) expect(def.name).toBe(key);
  });

  it('the operations of issue 11 exist under their listed names', () => {
    for (const name of [
      'balanceInquiry',
      'approveTransfer',
      'confirmPhone',
      'confirmEmail',
      'confirmAddress',
      'adminReassignDocumentList',
      'adminDocumentAssign',
      'usernameChangeRequestIdentityJob',
      'usernameChangeRequestCompleted',
      'states',
      'beneficiaryList',
      'paymentTemplateList',
    ]) {
      expect(listed.has(name), name).toBe(true);
      expect(implemented, name).toContain(name);
    }
  });
});
