/**
 * Northwind Trading Ltd's structure in demo mode (issue 17): its company details, two directors
 * (Olivia Owens, its owner and a user, and Daniel Reed, not a user: the potential user to invite),
 * Olivia holding 40 %, Harbour Holdings Ltd holding 60 % with its own director and shareholder
 * Marta Lind holding 50 % of it (effectively 30 %: an ultimate beneficial owner with source-of-funds
 * details), and the authorised users clerk (full rights) and viewer (read) as representatives.
 * Nobody's sign-in, rights or money changes: the access rows are seed.ts's.
 */
import { PositionId } from '../../../api/business.ts';
import type { Tx } from '../../db/types.ts';
import { businessCompanies, businessRepresentativeAddresses, businessRepresentatives } from './business.tables.ts';

export const NORTHWIND_STRUCTURE = {
  company: {
    tradingName: 'Northwind',
    registrationNumber: '09876543',
    registrationDate: '2015-03-02',
    businessTaxId: 'GB123456789',
    website: 'https://northwind.example',
    email: 'hello@northwind.test',
    description: 'Wholesale of household goods',
  },
  harbour: { companyName: 'Harbour Holdings Ltd', registrationNumber: '11223344', countryCode: 'GB', sharePercent: 60 },
  olivia: { firstName: 'Olivia', lastName: 'Owens', sharePercent: 40 },
  daniel: { firstName: 'Daniel', lastName: 'Reed', email: 'daniel.reed@northwind.test' },
  marta: { firstName: 'Marta', lastName: 'Lind', email: 'marta.lind@harbour.test', sharePercent: 50 },
} as const;

export async function seedNorthwindStructure(
  tx: Tx,
  ids: { northwind: number; owner: { userId: number; email: string }; clerk: { userId: number; email: string }; viewer: { userId: number; email: string } },
): Promise<void> {
  const s = NORTHWIND_STRUCTURE;
  const customerId = ids.northwind;
  await tx.insert(businessCompanies).values({
    customerId,
    ...s.company,
    financialDetail: { monthlyDepositAmount: 250000, monthlyWithdrawalAmount: 200000, currency: 'GBP' },
    dueDiligence: { government: false, lawsuits: false },
  });
  const insert = async (values: Omit<typeof businessRepresentatives.$inferInsert, 'customerId'>) => {
    const [row] = await tx
      .insert(businessRepresentatives)
      .values({ customerId, ...values })
      .returning({ id: businessRepresentatives.id });
    return row!.id;
  };
  const olivia = await insert({
    kind: 'person',
    positionIds: [PositionId.director, PositionId.shareholder, PositionId.owner],
    firstName: s.olivia.firstName,
    lastName: s.olivia.lastName,
    birthDay: '1979-06-21',
    email: ids.owner.email,
    shareHundredths: s.olivia.sharePercent * 100,
    userId: ids.owner.userId,
    identityStatus: 'validated',
  });
  await tx
    .insert(businessRepresentativeAddresses)
    .values({ representativeId: olivia, address1: '12 Harbour Street', city: 'London', postalCode: 'E1 6AN', countryCode: 'GB', status: 'confirmed' });
  await insert({ kind: 'person', positionIds: [PositionId.director], firstName: s.daniel.firstName, lastName: s.daniel.lastName, birthDay: '1983-01-09', email: s.daniel.email });
  const harbour = await insert({
    kind: 'company',
    positionIds: [PositionId.shareholder],
    companyName: s.harbour.companyName,
    registrationNumber: s.harbour.registrationNumber,
    countryCode: s.harbour.countryCode,
    shareHundredths: s.harbour.sharePercent * 100,
  });
  await insert({
    kind: 'person',
    positionIds: [PositionId.nestedShareholder, PositionId.director],
    parentId: harbour,
    firstName: s.marta.firstName,
    lastName: s.marta.lastName,
    birthDay: '1975-11-30',
    email: s.marta.email,
    shareHundredths: s.marta.sharePercent * 100,
    sourceOfFunds: { '1': 'Salary as a managing director since 2004', '3': 'Sale of a family business in 2016' },
  });
  await insert({ kind: 'person', positionIds: [PositionId.authorisedUser], firstName: 'Carl', lastName: 'Clarke', email: ids.clerk.email, userId: ids.clerk.userId });
  await insert({ kind: 'person', positionIds: [PositionId.authorisedUser], firstName: 'Vera', lastName: 'Vance', email: ids.viewer.email, userId: ids.viewer.userId });
}
