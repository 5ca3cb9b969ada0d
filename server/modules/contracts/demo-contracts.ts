/**
 * The demo's revenue-split contracts (demo data, server/db/seed.ts): Northwind pays 30 % of its
 * incoming payments to Rita Rossi under an ACTIVE contract, and Tom Tamm asks Northwind for a
 * 10 % share of Tom's payments (an UNSIGNED request waiting for Northwind's signature), so the
 * /revenue-split pages show a contract in force and a request to answer.
 *
 * Through the real functions: the contract row as PUT /contract writes it, each side's envelope
 * started on the built-in adapter (startContractSigning) and signed there (signDocument), whose
 * purpose handler records the signature and moves the status (Northwind is verified: ACTIVE at
 * once). Cost: one render and two stamps, about a second on a cold process (the fonts' first
 * load), a few hundred milliseconds after (see the report in tests/server/contracts.test.ts).
 */
import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/types.ts';
import { builtinSignatureAdapter, signDocument } from '../esign/builtin.ts';
import type { ContractRow } from './contracts.service.ts';
import { startContractSigning } from './contracts.signing.ts';
import { contracts } from './contracts.tables.ts';

export interface DemoContractsInput {
  northwind: { customerId: number; userId: number; signerName: string; email: string };
  /** the beneficiary of Northwind's active contract */
  rita: { customerId: number; userId: number; signerName: string; email: string };
  /** the payer asking Northwind for a share */
  tom: { customerId: number; userId: number; signerName: string };
  providerName: string;
  nowMs: number;
}

export async function seedDemoContracts(tx: Tx, input: DemoContractsInput): Promise<{ activeId: number; requestId: number }> {
  const at = new Date(input.nowMs);
  const today = new Date(`${at.toISOString().slice(0, 10)}T00:00:00Z`);
  const insert = async (values: typeof contracts.$inferInsert): Promise<ContractRow> => (await tx.insert(contracts).values(values).returning())[0]!;
  const active = await insert({
    companyId: input.northwind.customerId,
    initiatorId: input.northwind.customerId,
    createdByUserId: input.northwind.userId,
    senderId: input.northwind.customerId,
    senderSignerName: input.northwind.signerName,
    senderObligations: ['Pays 30 % of every payment received for the spring collection', 'Shares the monthly sales report by the 5th of each month'],
    beneficiaryId: input.rita.customerId,
    beneficiarySignerName: input.rita.signerName,
    beneficiaryObligations: ['Designs and promotes the spring collection', 'Keeps the designs exclusive to Northwind while the contract is in force'],
    percentageBp: 3000,
    note: 'Spring collection partnership',
    status: 'UNSIGNED',
    identificationStatus: 'NEW',
    activeFrom: today,
    createdAt: at,
    updatedAt: at,
  });
  const adapter = builtinSignatureAdapter({ publicUrl: 'http://127.0.0.1:3000' });
  const signSide = async (row: ContractRow, side: 'sender' | 'beneficiary', who: { userId: number; email: string; signerName: string }) => {
    const started = await startContractSigning(tx, {
      row,
      side,
      createdByUserId: who.userId,
      signerEmail: who.email,
      providerName: input.providerName,
      nowMs: input.nowMs,
      adapter,
    });
    const url = started.signUrls[0]!;
    await signDocument(tx, {
      token: url.slice(url.lastIndexOf('/') + 1),
      typedName: who.signerName,
      strokes: [],
      consent: true,
      ip: '127.0.0.1',
      userAgent: 'demo seed',
      nowMs: input.nowMs,
    });
  };
  await signSide(active, 'sender', input.northwind);
  const [afterFirst] = await tx.select().from(contracts).where(eq(contracts.id, active.id));
  await signSide(afterFirst!, 'beneficiary', input.rita);

  const request = await insert({
    companyId: input.tom.customerId,
    initiatorId: input.tom.customerId,
    createdByUserId: input.tom.userId,
    senderId: input.tom.customerId,
    senderSignerName: input.tom.signerName,
    senderObligations: ['Pays 10 % of every payment received for the Tartu pop-up shop'],
    beneficiaryId: input.northwind.customerId,
    beneficiarySignerName: input.northwind.signerName,
    beneficiaryObligations: ['Supplies the pop-up shop’s stock at wholesale prices'],
    percentageBp: 1000,
    note: null,
    status: 'UNSIGNED',
    identificationStatus: 'NEW',
    activeFrom: today,
    createdAt: at,
    updatedAt: at,
  });
  return { activeId: active.id, requestId: request.id };
}
