/**
 * What the contract's chart (contract.machine.ts) and its view read of a contract: the facts the
 * shared rules of api/contracts.ts decide with (`contractActions`), taken from the platform's
 * answer, and the payer's identification step (ours: the payer's side while NEED_IDENTIFICATION and
 * the identity check has not succeeded).
 */
import { contractActions, contractSide, type Contract, type ContractAction, type ContractFacts } from '../../api/contracts.ts';

export function factsOf(c: Contract): ContractFacts {
  return {
    status: c.status,
    initiatorId: c.initiatorId,
    senderId: c.sender.id,
    beneficiaryId: c.beneficiary.id,
    senderSigned: c.senderSignedAt !== null,
    beneficiarySigned: c.beneficiarySignedAt !== null,
    terminateRequestedBy: c.status === 'TERMINATING' ? (c.terminateInfo?.terminatedBy ?? null) : null,
  };
}

/** The actions the acting customer may take now: the same rule the platform decides with. */
export function actionsFor(c: Contract | null, customerId: number, mayAct: boolean): ContractAction[] {
  return c ? contractActions(factsOf(c), customerId, mayAct) : [];
}

/** The payer (sender) identifies its signer after both signatures, until the identity check succeeds. */
export function mayIdentify(c: Contract | null, customerId: number, mayAct: boolean): boolean {
  return c !== null && mayAct && c.status === 'NEED_IDENTIFICATION' && contractSide(factsOf(c), customerId) === 'sender' && c.identificationStatus !== 'SUCCESS';
}
