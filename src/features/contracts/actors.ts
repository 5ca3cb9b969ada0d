/**
 * The real actors of the contract's page (machines/contract) and of the create form
 * (machines/contract-create): the contracts service's REST calls (rest.ts). The reads go through
 * the query client (queries.ts), so what an action re-reads is what the list shows next.
 */
import * as v from 'valibot';
import type { QueryClient } from '@tanstack/react-query';
import { fromPromise } from 'xstate';
import {
  CONTRACT_ROUTES,
  CheckSignerAnswerSchema,
  ContractAnswerSchema,
  ContractVerifyAnswerSchema,
  PdfGeneratorAnswerSchema,
  PdfUrlAnswerSchema,
  SignUrlAnswerSchema,
  SignerIdentificationAnswerSchema,
  contractPath,
  type ContractCreate,
} from '../../../api/contracts.ts';
import {
  contractMachine,
  type ActionResult,
  type ContractFailure,
  type LoadContractResult,
  type RunActionRequest,
  type StartSigningResult,
  type UrlResult,
} from '../../../machines/contract/contract.machine.ts';
import {
  contractCreateMachine,
  type CallFailure,
  type CreateResult,
  type LookupResult,
  type PreviewResult,
  type VerifyResult,
} from '../../../machines/contract-create/contract-create.machine.ts';
import { contractQuery, customerLookupQuery, invalidateContracts } from './queries.ts';
import { ContractReadError, contractRest, type ContractAccess, type RestResult } from './rest.ts';

type RestFailure = Exclude<RestResult<unknown>, { ok: true }>;

/** Any 2xx answer: the actions answer the contract or nothing the page needs. */
const AnySchema = v.unknown();

const contractFailure = (f: RestFailure): ContractFailure => ({ ok: false, code: f.code === 'fields' ? 'failed' : f.code, message: f.message });
const callFailure = (f: RestFailure): CallFailure => ({ ok: false, code: f.code === 'network' ? 'network' : f.code === 'forbidden' ? 'forbidden' : 'failed', message: f.message });

async function read<T>(run: () => Promise<T>): Promise<{ ok: true; value: T } | RestFailure> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    if (error instanceof ContractReadError) return error.failure;
    return { ok: false, code: 'network', status: null, message: null, errors: [] };
  }
}

export async function loadContract(access: ContractAccess, client: QueryClient, contractId: number, fresh: boolean): Promise<LoadContractResult> {
  if (fresh) await invalidateContracts(client);
  const r = await read(() => client.fetchQuery(contractQuery(access, contractId)));
  return r.ok ? { ok: true, contract: r.value } : contractFailure(r);
}

export async function runAction(access: ContractAccess, request: RunActionRequest): Promise<ActionResult> {
  const body = request.action === 'terminate' ? { note: request.note ?? '' } : undefined;
  const r = await contractRest(access, 'POST', contractPath(request.contractId, request.action), AnySchema, body);
  return r.ok ? { ok: true } : contractFailure(r);
}

/** checkSigner first (document 3 §4: signing is subject to canSign), then the sign URL. */
export async function startSigning(access: ContractAccess, contractId: number): Promise<StartSigningResult> {
  const check = await contractRest(access, 'GET', contractPath(contractId, 'checkSigner'), CheckSignerAnswerSchema);
  if (!check.ok) return contractFailure(check);
  if (!check.value.canSign) return { ok: false, code: 'cannotSign', message: null };
  const sign = await contractRest(access, 'GET', contractPath(contractId, 'signUrl'), SignUrlAnswerSchema);
  return sign.ok ? { ok: true, url: sign.value.signUrl } : contractFailure(sign);
}

/** The identity check's link, then the start recorded (before the browser leaves). */
export async function startIdentification(access: ContractAccess, contractId: number): Promise<UrlResult> {
  const link = await contractRest(access, 'POST', CONTRACT_ROUTES.signerIdentification, SignerIdentificationAnswerSchema, { contractId });
  if (!link.ok) return contractFailure(link);
  const started = await contractRest(access, 'POST', contractPath(contractId, 'identificationStarted'), AnySchema);
  return started.ok ? { ok: true, url: link.value.redirectUrl } : contractFailure(started);
}

export async function getPdfUrl(access: ContractAccess, contractId: number): Promise<UrlResult> {
  const r = await contractRest(access, 'GET', contractPath(contractId, 'pdfUrl'), PdfUrlAnswerSchema);
  return r.ok ? { ok: true, url: r.value.pdfUrl } : contractFailure(r);
}

/** The contract's chart with the app's actors. */
export function createContractLogic(access: ContractAccess, client: QueryClient) {
  return contractMachine.provide({
    actors: {
      loadContract: fromPromise<LoadContractResult, { contractId: number; fresh: boolean }>(({ input }) => loadContract(access, client, input.contractId, input.fresh)),
      runAction: fromPromise<ActionResult, RunActionRequest>(({ input }) => runAction(access, input)),
      startSigning: fromPromise<StartSigningResult, { contractId: number }>(({ input }) => startSigning(access, input.contractId)),
      startIdentification: fromPromise<UrlResult, { contractId: number }>(({ input }) => startIdentification(access, input.contractId)),
      getPdfUrl: fromPromise<UrlResult, { contractId: number }>(({ input }) => getPdfUrl(access, input.contractId)),
    },
  });
}

/* ------------------------------------------------------------------------------ create */

export async function lookupCustomer(access: ContractAccess, client: QueryClient, email: string): Promise<LookupResult> {
  const r = await read(() => client.fetchQuery(customerLookupQuery(access, email)));
  if (r.ok) return { ok: true, counterparty: { id: r.value.id, type: r.value.type, name: r.value.name, email } };
  return r.code === 'notFound' ? { ok: false, code: 'notFound', message: null } : callFailure(r);
}

export async function verifyCounterparty(access: ContractAccess, input: { companyId: number; counterpartyId: number }): Promise<VerifyResult> {
  const r = await contractRest(access, 'POST', CONTRACT_ROUTES.verify, ContractVerifyAnswerSchema, input);
  return r.ok ? { ok: true, isValid: r.value.isValid, reason: r.value.reason ?? null } : callFailure(r);
}

export async function previewPdf(access: ContractAccess, payload: ContractCreate): Promise<PreviewResult> {
  const r = await contractRest(access, 'POST', CONTRACT_ROUTES.pdfGenerator.replace(':name', 'contract'), PdfGeneratorAnswerSchema, payload);
  return r.ok ? { ok: true, url: r.value.redirectLink } : callFailure(r);
}

export async function createContract(access: ContractAccess, client: QueryClient, payload: ContractCreate): Promise<CreateResult> {
  const r = await contractRest(access, 'PUT', CONTRACT_ROUTES.list, ContractAnswerSchema, payload);
  if (r.ok) {
    void invalidateContracts(client);
    return { ok: true, contractId: r.value.contract.id };
  }
  if (r.code === 'fields') return { ok: false, code: 'fields', errors: r.errors, message: null };
  return callFailure(r);
}

/** The create form's chart with the app's actors. */
export function createContractCreateLogic(access: ContractAccess, client: QueryClient) {
  return contractCreateMachine.provide({
    actors: {
      lookupCustomer: fromPromise<LookupResult, { email: string }>(({ input }) => lookupCustomer(access, client, input.email)),
      verifyCounterparty: fromPromise<VerifyResult, { companyId: number; counterpartyId: number }>(({ input }) => verifyCounterparty(access, input)),
      previewPdf: fromPromise<PreviewResult, ContractCreate>(({ input }) => previewPdf(access, input)),
      createContract: fromPromise<CreateResult, ContractCreate>(({ input }) => createContract(access, client, input)),
    },
  });
}
