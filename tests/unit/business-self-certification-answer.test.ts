/**
 * The company certification's Get answer survives the app's answer normalisation (src/lib/request.ts
 * turns numeric-looking strings into numbers unless the key is kept): a ticker may be all digits
 * (Tokyo's '7203'), a typed explanation too; read as numbers they would fail the answer's schema and
 * the page would not load.
 *
 * Proof it can fail (2026-11-27): without 'companyTicket' in keepAsString this test went red.
 */
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { BusinessCertificationAnswerSchema } from '../../api/tax-certification.ts';
import { normaliseAnswer } from '../../src/lib/request.ts';

const answer = {
  w9FormDocumentStatus: 'notRequired',
  certificateOfLossOfNationalityDocumentStatus: 'notRequired',
  taxResidencySelfCertificationDocumentStatus: 'pending',
  w8BenFormDocumentStatus: 'pending',
  requiredForms: ['w8BenE', 'taxResidencySelfCertification'],
  documents: [],
  updatedAt: '2026-11-27T10:00:00Z',
  prefill: { name: '1234', registrationCountryCode: 'JP', taxId: '1234567890123' },
  certification: {
    name: '7203',
    entityType: 'general',
    registrationCountryCode: 'JP',
    giin: null,
    giinMissingReason: null,
    isUsingClientFunds: null,
    isManagedByFinancialInstitution: null,
    isPubliclyTraded: true,
    companySecurityMarket: 'Tokyo Stock Exchange',
    companyTicket: '7203',
    isOwnPubliclyTradedCompany: null,
    companyOwnedByYou: { market: 'Tokyo Stock Exchange', name: 'Parent', ticket: '6758' },
    isEarnPassiveIncome: null,
    isUSTaxPayer: false,
    isDisregardedEntity: false,
    placeOfBusinessAddressId: 7,
    registeredAddressId: 7,
    taxIds: [{ countryCode: 'JP', taxId: '1234567890123', tinMissingReason: null, tinMissingExplanation: null }],
    controllingPersons: [],
  },
};

describe('business certification answer', () => {
  it('keeps numeric-looking tickers and numbers as strings', () => {
    const normalised = normaliseAnswer(answer) as typeof answer;
    expect(normalised.certification.companyTicket).toBe('7203');
    expect(normalised.certification.companyOwnedByYou.ticket).toBe('6758');
    expect(v.safeParse(BusinessCertificationAnswerSchema, normalised).success).toBe(true);
  });
});
