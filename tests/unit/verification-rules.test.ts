/**
 * Document 1 §3 "Document states (derived)" and §4 "Account verification status (first match
 * wins)", "Required actions counted" and "Status banner" (api/verification.ts).
 *
 * The status table has one row per rule, named `§4 rule <id>` (the ids of VERIFICATION_RULES:
 * '2a' is rule 2's first case), and one row per rule where an earlier rule also holds and wins,
 * named `§4 order: <earlier> before <later>`. Each row also asserts that the rules it names do hold
 * for its inputs, so a row cannot pass by accident. The statechart's guards are checked against
 * the same list at the end.
 */
import { describe, expect, it } from 'vitest';
import {
  DocumentStatus,
  EXPIRES_SOON_DAYS,
  REQUIRED_ACTION_IDS,
  VERIFICATION_RULES,
  addDays,
  bannerActions,
  documentState,
  missingLimitDocuments,
  requiredActions,
  statusBanner,
  verificationRule,
  verificationStatus,
  type DocumentFacts,
  type DocumentState,
  type RequiredActionId,
  type VerificationInputs,
  type VerificationRuleId,
  type VerificationStatus,
} from '../../api/verification.ts';
import { createActor, fromPromise, waitFor } from 'xstate';
import { RULE_GUARDS, verificationStatusMachine, type LoadStatusResult } from '../../machines/verification-status/verification-status.machine.ts';
import { listTransitions } from '../../scripts/machine-graph.ts';
import { verifiedInputs } from '../verification-inputs.ts';

const TODAY = '2026-03-15';

describe('documentState (document 1 §3)', () => {
  const doc = (statusId: number, uploaded: string, expiresDate: string | null = null): DocumentFacts => ({ statusId, uploaded, expiresDate });
  const confirmedExpiring = (days: number) => [doc(DocumentStatus.confirmed, '2026-01-01T10:00:00Z', addDays(TODAY, days))];
  const rows: [string, DocumentFacts[], DocumentState, boolean?][] = [
    ['nothing uploaded: none', [], 'none'],
    ['nothing uploaded, not required: notRequired', [], 'notRequired', false],
    ['only deleted uploads: none (deleted ignored)', [doc(DocumentStatus.deleted, '2026-01-01T10:00:00Z')], 'none'],
    ['only deleted uploads, not required: notRequired', [doc(DocumentStatus.deleted, '2026-01-01T10:00:00Z')], 'notRequired', false],
    [
      'a deleted newer upload does not hide the older confirmed one',
      [doc(DocumentStatus.confirmed, '2026-01-01T10:00:00Z'), doc(DocumentStatus.deleted, '2026-02-01T10:00:00Z')],
      'validated',
    ],
    ['submitted: pending', [doc(DocumentStatus.submitted, '2026-01-01T10:00:00Z')], 'pending'],
    ['pending: pending', [doc(DocumentStatus.pending, '2026-01-01T10:00:00Z')], 'pending'],
    ['under investigation: pending', [doc(DocumentStatus.underInvestigation, '2026-01-01T10:00:00Z')], 'pending'],
    ['confirmed without expiry: validated', [doc(DocumentStatus.confirmed, '2026-01-01T10:00:00Z')], 'validated'],
    ['confirmed, expired yesterday: expired', confirmedExpiring(-1), 'expired'],
    ['confirmed, expires today: expiredSoon', confirmedExpiring(0), 'expiredSoon'],
    ['confirmed, expires tomorrow: expiredSoon', confirmedExpiring(1), 'expiredSoon'],
    [`confirmed, expires in ${EXPIRES_SOON_DAYS} days: expiredSoon`, confirmedExpiring(30), 'expiredSoon'],
    [`confirmed, expires in ${EXPIRES_SOON_DAYS + 1} days: validated`, confirmedExpiring(31), 'validated'],
    ['status expired: expired', [doc(DocumentStatus.expired, '2026-01-01T10:00:00Z')], 'expired'],
    ['rejected: rejected', [doc(DocumentStatus.rejected, '2026-01-01T10:00:00Z')], 'rejected'],
    ['name mismatch: rejected', [doc(DocumentStatus.nameMismatch, '2026-01-01T10:00:00Z')], 'rejected'],
    ['canceled: rejected', [doc(DocumentStatus.canceled, '2026-01-01T10:00:00Z')], 'rejected'],
    [
      'latest wins: confirmed, then a rejected newer upload',
      [doc(DocumentStatus.confirmed, '2026-01-01T10:00:00Z'), doc(DocumentStatus.rejected, '2026-02-01T10:00:00Z')],
      'rejected',
    ],
    [
      'latest wins whatever the list order: a newer submitted upload after a rejection',
      [doc(DocumentStatus.submitted, '2026-02-01T10:00:00Z'), doc(DocumentStatus.rejected, '2026-01-01T10:00:00Z')],
      'pending',
    ],
    [
      'latest wins by time of day too',
      [doc(DocumentStatus.rejected, '2026-02-01T09:00:00Z'), doc(DocumentStatus.confirmed, '2026-02-01T18:30:00Z')],
      'validated',
    ],
  ];
  it.each(rows)('%s', (_name, documents, expected, required = true) => {
    expect(documentState(documents, TODAY, required)).toBe(expected);
  });

  it('addDays crosses months and years', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});

/** A verified personal customer with nothing to do: checked by rule 6. */
const base: VerificationInputs = verifiedInputs;
const inputs = (over: Partial<VerificationInputs>): VerificationInputs => ({ ...base, ...over });

/** One restriction reason whose requirement documents have these upload statuses (one list per document). */
const reasons = (...documents: number[][]): VerificationInputs['limitReasons'] => [
  {
    actionTypeId: 3,
    reason: 'expiredDocuments',
    requirementDocuments: documents.map((statuses, i) => ({ documentTypeId: 10 + i, uploadedDocuments: statuses.map((statusId) => ({ statusId })) })),
  },
];
const { confirmed, submitted, rejected, deleted, pending } = DocumentStatus;
/** one required action (phone not confirmed) */
const withAction = { phoneConfirmed: false } as const;

describe('requiredActions (document 1 §4 "Required actions counted")', () => {
  const tax = (s: DocumentState, which: keyof VerificationInputs['taxCertification'] = 'w9FormDocumentStatus') => ({
    taxCertification: { ...base.taxCertification, [which]: s },
  });
  const rows: [string, Partial<VerificationInputs>, RequiredActionId[]][] = [
    ['none for a complete profile', {}, []],
    ['taxSection: w9 none', tax('none'), ['taxSection']],
    ['taxSection: w9 rejected', tax('rejected'), ['taxSection']],
    ['taxSection: loss of nationality none', tax('none', 'certificateOfLossOfNationalityDocumentStatus'), ['taxSection']],
    ['taxSection: self-certification rejected', tax('rejected', 'taxResidencySelfCertificationDocumentStatus'), ['taxSection']],
    ['taxSection: w8-BEN none', tax('none', 'w8BenFormDocumentStatus'), ['taxSection']],
    ['taxSection: pending is not a gap', tax('pending'), []],
    ['taxSection: expired is not a gap (the spec names none and rejected)', tax('expired'), []],
    ['taxSection: personal only (a business with a gap has none)', { customerType: 'business', ...tax('none') }, []],
    ['address missing', { address: 'missing' }, ['address']],
    ['address incomplete', { address: 'incomplete' }, ['address']],
    ['proofOfResidence expiredSoon', { proofOfResidence: 'expiredSoon' }, ['proofOfResidence']],
    ['proofOfResidence none', { proofOfResidence: 'none' }, ['proofOfResidence']],
    ['proofOfResidence rejected', { proofOfResidence: 'rejected' }, ['proofOfResidence']],
    ['proofOfResidence expired (decision: counts)', { proofOfResidence: 'expired' }, ['proofOfResidence']],
    ['proofOfResidence pending does not count', { proofOfResidence: 'pending' }, []],
    ['proofOfResidence notRequired does not count', { proofOfResidence: 'notRequired' }, []],
    ['identity missing (none)', { identity: 'none' }, ['identity']],
    ['identity rejected (also name mismatch and canceled, see documentState)', { identity: 'rejected' }, ['identity']],
    ['identity expired (decision: counts)', { identity: 'expired' }, ['identity']],
    ['identity expiredSoon does not count (the spec lists it for proof of residence only)', { identity: 'expiredSoon' }, []],
    ['identity pending does not count', { identity: 'pending' }, []],
    ['phone not confirmed', { phoneConfirmed: false }, ['phone']],
    ['videoIdentity rejected', { videoIdentity: 'rejected' }, ['videoIdentity']],
    ['videoIdentity none does not count', { videoIdentity: 'none' }, []],
    ['videoIdentity pending does not count', { videoIdentity: 'pending' }, []],
    ['two at once: address and phone', { address: 'missing', phoneConfirmed: false }, ['address', 'phone']],
    ['three at once: identity, proof of residence, video identity', { identity: 'none', proofOfResidence: 'none', videoIdentity: 'rejected' }, ['proofOfResidence', 'identity', 'videoIdentity']],
    [
      'all six at once, in profile order',
      { ...tax('rejected'), address: 'incomplete', proofOfResidence: 'expiredSoon', identity: 'rejected', phoneConfirmed: false, videoIdentity: 'rejected' },
      ['taxSection', 'address', 'proofOfResidence', 'identity', 'phone', 'videoIdentity'],
    ],
    [
      'all but the tax section for a business',
      { customerType: 'business', ...tax('rejected'), address: 'incomplete', proofOfResidence: 'none', identity: 'none', phoneConfirmed: false, videoIdentity: 'rejected' },
      ['address', 'proofOfResidence', 'identity', 'phone', 'videoIdentity'],
    ],
  ];
  it.each(rows)('%s', (_name, over, expected) => {
    const actions = requiredActions(inputs(over));
    expect(actions.map((a) => a.id)).toEqual(expected);
    expect(actions).toHaveLength(expected.length);
  });

  it('each action says which profile section fixes it', () => {
    const all = requiredActions(
      inputs({ taxCertification: { ...base.taxCertification, w9FormDocumentStatus: 'none' }, address: 'missing', proofOfResidence: 'none', identity: 'none', phoneConfirmed: false, videoIdentity: 'rejected' }),
    );
    expect(all).toEqual([
      { id: 'taxSection', section: 'taxCertification' },
      { id: 'address', section: 'address' },
      { id: 'proofOfResidence', section: 'proofOfResidence' },
      { id: 'identity', section: 'identity' },
      { id: 'phone', section: 'phones' },
      { id: 'videoIdentity', section: 'videoIdentity' },
    ]);
    expect(all.map((a) => a.id)).toEqual([...REQUIRED_ACTION_IDS]);
  });
});

describe('limit documents', () => {
  it('a requirement is in when an upload is confirmed or in review; rejected and deleted ones are not', () => {
    const i = inputs({ limitReasons: reasons([confirmed], [submitted], [rejected], [deleted], [], [rejected, pending]) });
    expect(missingLimitDocuments(i)).toEqual([
      { actionTypeId: 3, documentTypeId: 12 },
      { actionTypeId: 3, documentTypeId: 13 },
      { actionTypeId: 3, documentTypeId: 14 },
    ]);
  });
});

const rule = (id: VerificationRuleId) => {
  const found = VERIFICATION_RULES.find((r) => r.id === id);
  if (!found) throw new Error(`no rule ${id}`);
  return found;
};

describe('verificationStatus (document 1 §4, first match wins)', () => {
  /** [row name, the rule that must decide, its status, inputs] */
  const ruleRows: [string, VerificationRuleId, VerificationStatus, VerificationInputs][] = [
    ['§4 rule 1: a representative is checked', '1', 'checked', inputs({ isRepresentative: true, verified: false })],
    ['§4 rule 2a: limited, every limit document uploaded and decided: processing', '2a', 'processing', inputs({ limited: true, limitReasons: reasons([confirmed], [rejected, confirmed]) })],
    ['§4 rule 2b: limited, a limit document missing: limited', '2b', 'limited', inputs({ limited: true, limitReasons: reasons([confirmed], []) })],
    ['§4 rule 2b: limited, a limit document rejected: limited', '2b', 'limited', inputs({ limited: true, limitReasons: reasons([rejected]) })],
    ['§4 rule 2b: limited, every document uploaded but one in review: limited (literal reading)', '2b', 'limited', inputs({ limited: true, limitReasons: reasons([confirmed], [submitted]) })],
    ['§4 rule 2b: limited with a reason that asks for no documents: limited', '2b', 'limited', inputs({ limited: true, limitReasons: [{ actionTypeId: 1, reason: 'unpaidInvoice', requirementDocuments: [] }] })],
    ['§4 rule 3a: duplicate documents, a new one uploaded: duplicateDocumentsUploaded', '3a', 'duplicateDocumentsUploaded', inputs({ duplicateDocuments: 'uploaded' })],
    ['§4 rule 3b: duplicate documents: duplicateDocuments', '3b', 'duplicateDocuments', inputs({ duplicateDocuments: 'required' })],
    ['§4 rule 4: a required action: hasRequiredActions', '4', 'hasRequiredActions', inputs(withAction)],
    ['§4 rule 5a: unverified, every limit document in (one in review): processing', '5a', 'processing', inputs({ verified: false, limitReasons: reasons([confirmed], [submitted]) })],
    ['§4 rule 5b: unverified, a limit document missing: unverified', '5b', 'unverified', inputs({ verified: false, limitReasons: reasons([confirmed], []) })],
    ['§4 rule 5c: unverified, documents in review: verificationProcessing', '5c', 'verificationProcessing', inputs({ verified: false, documentsInReview: true })],
    ['§4 rule 5d: unverified business, nothing in review: checked', '5d', 'checked', inputs({ verified: false, customerType: 'business' })],
    ['§4 rule 5e: unverified personal, nothing in review: finalReview', '5e', 'finalReview', inputs({ verified: false })],
    ['§4 someCardDocumentRequired: verified, a card needs an address document', 'card', 'someCardDocumentRequired', inputs({ isCardDocumentRequired: true })],
    ['§4 rule 6: otherwise checked', '6', 'checked', base],
    ['§4 rule 6: a verified business with nothing to do is checked', '6', 'checked', inputs({ customerType: 'business' })],
  ];
  it.each(ruleRows)('%s', (_name, id, status, i) => {
    expect(verificationRule(i).id).toBe(id);
    expect(verificationStatus(i)).toBe(status);
  });

  it('every rule has a row', () => {
    expect(new Set(ruleRows.map((r) => r[1]))).toEqual(new Set(VERIFICATION_RULES.map((r) => r.id)));
  });

  /** Everything at once: every rule that can hold together does. */
  const everything = inputs({
    isRepresentative: true,
    limited: true,
    verified: false,
    limitReasons: reasons([confirmed]),
    duplicateDocuments: 'uploaded',
    phoneConfirmed: false,
    documentsInReview: true,
    customerType: 'business',
    isCardDocumentRequired: true,
  });
  /** [row name, the earlier rule that wins, a later rule that also holds, inputs] */
  const orderRows: [string, VerificationRuleId, VerificationRuleId, VerificationInputs][] = [
    ['§4 order: 1 before 2b (a limited representative is checked)', '1', '2b', inputs({ isRepresentative: true, limited: true })],
    ['§4 order: 1 before every later rule', '1', '2a', everything],
    ['§4 order: 2a before 2b', '2a', '2b', inputs({ limited: true, limitReasons: reasons([confirmed]) })],
    ['§4 order: 2a before 4 (a limited account whose documents are decided, with a required action)', '2a', '4', inputs({ limited: true, limitReasons: reasons([confirmed]), ...withAction })],
    ['§4 order: 2b before 3a', '2b', '3a', inputs({ limited: true, duplicateDocuments: 'uploaded' })],
    ['§4 order: 2b before 3b', '2b', '3b', inputs({ limited: true, duplicateDocuments: 'required' })],
    ['§4 order: 2b before 4', '2b', '4', inputs({ limited: true, ...withAction })],
    ['§4 order: 2b before 5b (limited and unverified)', '2b', '5b', inputs({ limited: true, verified: false, limitReasons: reasons([]) })],
    ['§4 order: 3a before 4', '3a', '4', inputs({ duplicateDocuments: 'uploaded', ...withAction })],
    ['§4 order: 3b before 4', '3b', '4', inputs({ duplicateDocuments: 'required', ...withAction })],
    ['§4 order: 3b before 5e (unverified)', '3b', '5e', inputs({ duplicateDocuments: 'required', verified: false })],
    ['§4 order: 4 before 5a', '4', '5a', inputs({ verified: false, limitReasons: reasons([confirmed]), ...withAction })],
    ['§4 order: 4 before 5b', '4', '5b', inputs({ verified: false, limitReasons: reasons([]), ...withAction })],
    ['§4 order: 4 before 5e', '4', '5e', inputs({ verified: false, ...withAction })],
    ['§4 order: 4 before someCardDocumentRequired', '4', 'card', inputs({ isCardDocumentRequired: true, ...withAction })],
    ['§4 order: 5a before 5c (all limit documents in, some in review)', '5a', '5c', inputs({ verified: false, limitReasons: reasons([submitted]), documentsInReview: true })],
    ['§4 order: 5b before 5c', '5b', '5c', inputs({ verified: false, limitReasons: reasons([]), documentsInReview: true })],
    ['§4 order: 5b before 5d (an unverified business missing a limit document)', '5b', '5d', inputs({ verified: false, customerType: 'business', limitReasons: reasons([]) })],
    ['§4 order: 5c before 5d', '5c', '5d', inputs({ verified: false, customerType: 'business', documentsInReview: true })],
    ['§4 order: 5c before 5e', '5c', '5e', inputs({ verified: false, documentsInReview: true })],
    ['§4 order: 5d before 5e', '5d', '5e', inputs({ verified: false, customerType: 'business' })],
    ['§4 order: 5e before someCardDocumentRequired', '5e', 'card', inputs({ verified: false, isCardDocumentRequired: true })],
    ['§4 order: someCardDocumentRequired before 6', 'card', '6', inputs({ isCardDocumentRequired: true })],
  ];
  it.each(orderRows)('%s', (_name, earlier, later, i) => {
    expect(rule(earlier).when(i), `${earlier} holds`).toBe(true);
    expect(rule(later).when(i), `${later} holds too`).toBe(true);
    expect(verificationRule(i).id).toBe(earlier);
    expect(verificationStatus(i)).toBe(rule(earlier).status);
  });

  it('every rule but the first loses to an earlier one in some row', () => {
    const later = new Set(orderRows.map((r) => r[2]));
    expect(VERIFICATION_RULES.slice(1).map((r) => r.id).filter((id) => !later.has(id))).toEqual([]);
  });

  it('the statechart evaluates the same rules in the same order (RULE_GUARDS)', () => {
    const evaluating = listTransitions(verificationStatusMachine).filter((t) => t.sourceId === 'verificationStatus.known.evaluating' && t.eventType === 'always');
    expect(evaluating.map((t) => [t.guard, t.targetIds.map((id) => id.split('.').at(-1))])).toEqual(VERIFICATION_RULES.map((r) => [RULE_GUARDS[r.id], [r.status]]));
  });

  it.each([...ruleRows, ...orderRows.map(([name, id, , i]) => [name, id, rule(id).status, i] as const)])('the statechart agrees: %s', async (_name, _id, status, i) => {
    const actor = createActor(verificationStatusMachine.provide({ actors: { loadStatus: fromPromise<LoadStatusResult>(async () => ({ ok: true, inputs: i })) } })).start();
    const s = await waitFor(actor, (snap) => snap.matches('known'));
    expect(s.matches({ known: status })).toBe(true);
    expect(s.context.status).toBe(status);
    actor.stop();
  });
});

describe('status banner (document 1 §4 "Status banner")', () => {
  const rows: [string, VerificationInputs, { visible: false } | { count: number; link: string }][] = [
    ['checked: hidden', base, { visible: false }],
    ['representative: hidden', inputs({ isRepresentative: true, phoneConfirmed: false }), { visible: false }],
    ['processing (limited, documents decided): hidden', inputs({ limited: true, limitReasons: reasons([confirmed]) }), { visible: false }],
    ['limited: warning, counts the missing limit documents, links to /limited-account', inputs({ limited: true, limitReasons: reasons([], [rejected], [confirmed]) }), { count: 2, link: '/limited-account' }],
    ['limited, the documents in review: warning without a count', inputs({ limited: true, limitReasons: reasons([submitted]) }), { count: 0, link: '/limited-account' }],
    ['duplicateDocuments: warning, one new identity document', inputs({ duplicateDocuments: 'required' }), { count: 1, link: '/profile' }],
    ['duplicateDocumentsUploaded: warning, nothing to do', inputs({ duplicateDocuments: 'uploaded' }), { count: 0, link: '/profile' }],
    ['hasRequiredActions: warning with one action', inputs(withAction), { count: 1, link: '/profile' }],
    ['hasRequiredActions: warning with three actions', inputs({ phoneConfirmed: false, address: 'missing', identity: 'none' }), { count: 3, link: '/profile' }],
    ['unverified: warning, counts the missing documents', inputs({ verified: false, limitReasons: reasons([], [], [submitted]) }), { count: 2, link: '/profile' }],
    ['verificationProcessing: hidden', inputs({ verified: false, documentsInReview: true }), { visible: false }],
    ['finalReview: hidden', inputs({ verified: false }), { visible: false }],
    ['someCardDocumentRequired: warning, one document', inputs({ isCardDocumentRequired: true }), { count: 1, link: '/profile' }],
  ];
  it.each(rows)('%s', (_name, i, expected) => {
    const status = verificationStatus(i);
    const banner = statusBanner(status, bannerActions(status, i));
    if ('visible' in expected) expect(banner).toEqual(expected);
    else expect(banner).toEqual({ visible: true, tone: 'warning', status, ...expected });
  });
});
