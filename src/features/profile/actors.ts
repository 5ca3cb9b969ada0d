/**
 * The real calls behind the profile's statecharts (machines/code-confirm, machines/address-edit).
 * A document upload (machines/document-upload) goes through the verification feature's one upload
 * call (src/features/verification/upload-document.ts). Expected failures come back as the
 * machines' values: VF as field errors (or a wrong code), no answer as network, the rest refused
 * with the platform's words. Codes and files are never logged.
 */
import { ResponseCode, type Failure } from '../../../api/envelope.ts';
import type { RequestOf } from '../../../api/method.ts';
import type { Methods } from '../../../api/registry.ts';
import type { ConfirmCodeResult, RequestCodeResult } from '../../../machines/code-confirm/code-confirm.machine.ts';
import type { CardCheckRequest, CardCheckResult, SaveAddressRequest, SaveAddressResult } from '../../../machines/address-edit/address-edit.machine.ts';
import { ADDRESS_DOCUMENT_KEYS } from '../../../machines/address-edit/address-edit.rules.ts';
import { callMethod, describeFailure, isFailure } from '../../lib/request.ts';

const refusedOrNetwork = (f: Failure) =>
  f.responseCode === ResponseCode.network ? ({ ok: false, code: 'network', detail: null } as const) : ({ ok: false, code: 'refused', detail: describeFailure(f) } as const);

/** A VF answer about the code itself (wrong, expired, used up): the platform's words. */
const codeFailure = (f: Failure): ConfirmCodeResult =>
  f.responseCode === ResponseCode.validation ? { ok: false, code: 'wrongCode', detail: describeFailure(f) } : refusedOrNetwork(f);

export const phoneConfirmActors = {
  async requestCode({ targetId }: { targetId: number }): Promise<RequestCodeResult> {
    const answer = await callMethod('phoneConfirmRequest', { phoneId: targetId });
    return isFailure(answer) ? refusedOrNetwork(answer) : { ok: true, sentTo: answer.sentTo };
  },
  async confirmCode({ targetId, code }: { targetId: number; code: string }): Promise<ConfirmCodeResult> {
    const answer = await callMethod('confirmPhone', { phoneId: targetId, code });
    return isFailure(answer) ? codeFailure(answer) : { ok: true };
  },
};

export const emailConfirmActors = {
  async requestCode({ targetId }: { targetId: number }): Promise<RequestCodeResult> {
    const answer = await callMethod('confirmRequestEmail', { emailId: targetId });
    return isFailure(answer) ? refusedOrNetwork(answer) : { ok: true, sentTo: null };
  },
  async confirmCode({ targetId, code }: { targetId: number; code: string }): Promise<ConfirmCodeResult> {
    const answer = await callMethod('confirmEmail', { emailId: targetId, confirmationCode: code });
    return isFailure(answer) ? codeFailure(answer) : { ok: true };
  },
};

/** customerAddressCreateOrReplace: the address, and each document's metadata with its files as parts named by its key. */
export async function saveAddress(request: SaveAddressRequest): Promise<SaveAddressResult> {
  const { values } = request;
  const payload: Record<string, unknown> = {
    addressId: request.addressId ?? undefined,
    addressType: values.addressType,
    address1: values.address1.trim(),
    address2: values.address2.trim(),
    city: values.city.trim(),
    postalCode: values.postalCode.trim(),
    countryCode: values.countryCode.trim().toUpperCase(),
    stateName: values.stateName.trim() || undefined,
    addressStatus: 1,
  };
  for (const key of ADDRESS_DOCUMENT_KEYS) {
    const d = request.documents[key];
    if (!d) continue;
    // The JSON part carries the metadata under the key; the files are parts `key` and `key.back`
    // (or `key.registrationStamp`): the wrapper names a file's part by its dotted path.
    payload[key] = {
      documentTypeId: d.documentTypeId,
      issuedDate: d.issuedDate.trim(),
      expiresDate: d.expiresDate.trim() || undefined,
    };
  }
  const files: [string, Blob][] = [];
  for (const key of ADDRESS_DOCUMENT_KEYS) {
    const d = request.documents[key];
    if (!d) continue;
    files.push([key, d.file.content]);
    if (d.secondPage && d.second) files.push([`${key}.${d.secondPage}`, d.second.content]);
  }
  const answer = await callMethod('customerAddressCreateOrReplace', payload as RequestOf<Methods['customerAddressCreateOrReplace']>, { files });
  if (!isFailure(answer)) return { ok: true };
  if (answer.responseCode === ResponseCode.validation && answer.validationErrors && answer.validationErrors.length > 0) return { ok: false, code: 'fields', errors: answer.validationErrors };
  if (answer.responseCode === ResponseCode.network) return { ok: false, code: 'network' };
  return { ok: false, code: 'refused', detail: describeFailure(answer) };
}

/** addressReplacementCompatibility (document 2 §7): the cards replacing an address cancels or sends to the old address. */
export async function checkCards(request: CardCheckRequest): Promise<CardCheckResult> {
  const answer = await callMethod('addressReplacementCompatibility', request);
  if (!isFailure(answer)) return { ok: true, toBeCanceled: answer.cardAccountsToBeCanceled, shippedToOldAddress: answer.cardAccountsToBeShippedToOldAddress };
  if (answer.responseCode === ResponseCode.network) return { ok: false, code: 'network' };
  return { ok: false, code: 'refused', detail: describeFailure(answer), ...(answer.validationErrors?.length ? { errors: answer.validationErrors } : {}) };
}
