/**
 * Document 3 §5 "Action-required counting", as a table: the company's count (each missing item,
 * each document whose status is not 1 or 2, each address lacking documents or with a status other
 * than 0 or 2) and a representative's flag (any document status set and not 1 or 2).
 */
import { describe, expect, it } from 'vitest';
import { companyActionItems, companyActionRequiredCount, representativeActionRequired, representativeKinds, type CompanyCountFacts } from '../../api/business.ts';

const complete: CompanyCountFacts = {
  name: 'Northwind Trading Ltd',
  registrationCountryCode: 'GB',
  tradingName: 'Northwind',
  email: 'hello@northwind.test',
  registrationNumber: '09876543',
  registrationDate: '2015-03-02',
  businessTaxId: 'GB123456789',
  phone: { number: '2071234567' },
  website: 'https://northwind.example',
  corporateDocuments: [],
  addresses: [],
};
const doc = { id: 1 };

describe('companyActionRequiredCount', () => {
  const rows: [string, Partial<CompanyCountFacts>, number][] = [
    ['nothing missing', {}, 0],
    ['no name', { name: null }, 1],
    ['a blank name counts as missing', { name: '  ' }, 1],
    ['no country', { registrationCountryCode: null }, 1],
    ['no trading name', { tradingName: null }, 1],
    ['no e-mail', { email: '' }, 1],
    ['no registration number', { registrationNumber: null }, 1],
    ['no registration date', { registrationDate: null }, 1],
    ['no tax id', { businessTaxId: null }, 1],
    ['no phone', { phone: null }, 1],
    ['a phone without a number', { phone: { number: '' } }, 1],
    ['no website', { website: null }, 1],
    [
      'every item missing',
      {
        name: null,
        registrationCountryCode: null,
        tradingName: null,
        email: null,
        registrationNumber: null,
        registrationDate: null,
        businessTaxId: null,
        phone: null,
        website: null,
      },
      9,
    ],
    ['documents of status 1 and 2 do not count', { corporateDocuments: [{ id: 1, statusId: 1 }, { id: 2, statusId: 2 }] }, 0],
    ['a document of status 0 counts', { corporateDocuments: [{ id: 3, statusId: 0 }] }, 1],
    ['each document of another status counts', { corporateDocuments: [{ id: 4, statusId: 26 }, { id: 5, statusId: 38 }, { id: 6, statusId: 2 }, { id: 7, statusId: 41 }] }, 3],
    ['an address of status 0 with a document: nothing', { addresses: [{ addressId: 7, statusId: 0, uploadedDocuments: [doc] }] }, 0],
    ['an address of status 2 with a document: nothing', { addresses: [{ addressId: 7, statusId: 2, uploadedDocuments: [doc] }] }, 0],
    ['an address lacking documents counts', { addresses: [{ addressId: 7, statusId: 2, uploadedDocuments: [] }] }, 1],
    ['an address of status 1 counts', { addresses: [{ addressId: 7, statusId: 1, uploadedDocuments: [doc] }] }, 1],
    ['an address of status 26 without documents counts once', { addresses: [{ addressId: 7, statusId: 26, uploadedDocuments: [] }] }, 1],
    [
      'items, documents and addresses add up',
      {
        website: null,
        corporateDocuments: [{ id: 8, statusId: 0 }],
        addresses: [
          { addressId: 7, statusId: 64, uploadedDocuments: [doc] },
          { addressId: 7, statusId: 2, uploadedDocuments: [doc] },
        ],
      },
      3,
    ],
  ];
  rows.push(['each required document not uploaded yet counts (beside §5)', { missingDocuments: [{ categoryId: 4, name: 'Business registration' }, { categoryId: 9, name: 'Control' }] }, 2]);
  for (const [label, change, count] of rows) {
    it(`${label}: ${count}`, () => {
      expect(companyActionRequiredCount({ ...complete, ...change })).toBe(count);
    });
  }
});

describe('companyActionItems', () => {
  it('names each item, in the order details, documents, addresses, required documents', () => {
    expect(
      companyActionItems({
        ...complete,
        phone: null,
        website: '',
        corporateDocuments: [{ id: 31, statusId: 26 }, { id: 32, statusId: 2 }],
        addresses: [{ addressId: 5, statusId: 0, uploadedDocuments: [] }, { addressId: 6, statusId: 64, uploadedDocuments: [doc] }],
        missingDocuments: [{ categoryId: 9, name: 'Control' }],
      }),
    ).toEqual([
      { kind: 'detail', detail: 'phone' },
      { kind: 'detail', detail: 'website' },
      { kind: 'document', documentId: 31, statusId: 26 },
      { kind: 'address', addressId: 5, hasDocument: false },
      { kind: 'address', addressId: 6, hasDocument: true },
      { kind: 'missingDocument', categoryId: 9, name: 'Control' },
    ]);
  });
});

describe('representativeActionRequired', () => {
  const rows: [string, (number | null | undefined)[], boolean][] = [
    ['no documents', [], false],
    ['a confirmed document (2)', [2], false],
    ['status 1', [1], false],
    ['a status not set (null)', [null], false],
    ['a status not set (undefined)', [undefined], false],
    ['a submitted document (0)', [0], true],
    ['a rejected one among good ones', [2, 1, 26], true],
    ['expired (38)', [38], true],
  ];
  for (const [label, statuses, required] of rows) {
    it(`${label}: ${required}`, () => {
      expect(representativeActionRequired({ documents: statuses.map((statusId) => ({ statusId })) })).toBe(required);
    });
  }
});

describe('representativeKinds (document 3 §3 by position id)', () => {
  it('2 director; 6 and 9 shareholder; 8 owner; any other id an authorised user', () => {
    expect(representativeKinds([2])).toEqual(['director']);
    expect(representativeKinds([6])).toEqual(['shareholder']);
    expect(representativeKinds([9])).toEqual(['shareholder']);
    expect(representativeKinds([8])).toEqual(['owner']);
    expect(representativeKinds([1])).toEqual(['authorisedUser']);
    expect(representativeKinds([7, 2, 6, 9])).toEqual(['authorisedUser', 'director', 'shareholder']);
  });
});
