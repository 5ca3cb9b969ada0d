/**
 * The real calls of the personal self-certification (machines/personal-self-certification):
 * personalFatcaCrsCertificationGet / Update, personalWFormUpload (its signData: the first sign URL)
 * and personalLossOfNationalityCertificateUpload (the file part `front`). They go through a call
 * function: the request wrapper for a signed-in customer, the representative's store
 * (personal-representative-store.ts) for /self-certification-representative. Expected failures
 * come back as the machine's values: VF as field errors, AU as `auth`, no answer as network, the
 * rest refused with the platform's words.
 */
import { ResponseCode, type Failure } from '../../../api/envelope.ts';
import type { RequestOf } from '../../../api/method.ts';
import type { MethodName, Methods } from '../../../api/registry.ts';
import type { CallFailure, LoadResult, SaveResult, SignResult, UploadResult } from '../../../machines/personal-self-certification/personal-self-certification.machine.ts';
import type { PersonalCertification } from '../../../api/tax-certification.ts';
import { callMethod, describeFailure, isFailure, type CallOptions, type MethodResult } from '../../lib/request.ts';

/** The named-method call the flow uses (callMethod, or a store that refuses some names). */
export type MethodCall = <N extends MethodName>(name: N, payload: RequestOf<Methods[N]>, options?: CallOptions) => Promise<MethodResult<N>>;

export function failureOf(f: Failure): CallFailure {
  if (f.responseCode === ResponseCode.network) return { ok: false, code: 'network' };
  if (f.responseCode === ResponseCode.auth) return { ok: false, code: 'auth' };
  return { ok: false, code: 'refused', detail: describeFailure(f), ...(f.validationErrors?.length ? { errors: f.validationErrors } : {}) };
}
const fieldsOr = (f: Failure): { ok: false; code: 'fields'; errors: NonNullable<Failure['validationErrors']> } | CallFailure =>
  f.responseCode === ResponseCode.validation && f.validationErrors?.length ? { ok: false, code: 'fields', errors: f.validationErrors } : failureOf(f);

export interface PersonalCertificationCalls {
  load(): Promise<LoadResult>;
  save(request: PersonalCertification): Promise<SaveResult>;
  sign(): Promise<SignResult>;
  uploadCln(file: Blob): Promise<UploadResult>;
}

export function personalCertificationCalls(call: MethodCall = callMethod): PersonalCertificationCalls {
  return {
    async load() {
      const a = await call('personalFatcaCrsCertificationGet', {});
      return isFailure(a) ? failureOf(a) : { ok: true, answer: a.certification };
    },
    async save(request) {
      const a = await call('personalFatcaCrsCertificationUpdate', request);
      return isFailure(a) ? fieldsOr(a) : { ok: true, answer: a.certification };
    },
    async sign() {
      const a = await call('personalWFormUpload', {});
      return isFailure(a) ? failureOf(a) : { ok: true, signUrls: a.signData.signUrls };
    },
    async uploadCln(file) {
      const a = await call('personalLossOfNationalityCertificateUpload', {}, { files: [['front', file]] });
      return isFailure(a) ? fieldsOr(a) : { ok: true, answer: a.certification };
    },
  };
}
