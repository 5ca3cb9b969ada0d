/**
 * The real actors of the company's self-certification (machines/business-self-certification):
 * the certification (businessFatcaCrsCertificationGet), the company's addresses (businessInfoGet),
 * its shareholders and directors who are persons (businessShareholderList, businessDirectorList),
 * the countries (dictionaries); the answers saved (businessFatcaCrsCertificationUpdate, its VF
 * answer kept as the fields' errors); the forms to sign (businessWFormUpload: signData); and the
 * browser's move to the first sign URL. Nothing here logs the answers or the sign URLs.
 */
import { fromPromise } from 'xstate';
import { distinctRepresentatives, representativeName } from '../../../api/business.ts';
import { ResponseCode, type Failure } from '../../../api/envelope.ts';
import {
  businessSelfCertificationMachine,
  type LoadResult,
  type PersonOption,
  type SaveResult,
  type SignResult,
} from '../../../machines/business-self-certification/business-self-certification.machine.ts';
import type { BusinessCertification } from '../../../api/tax-certification.ts';
import { callMethod, isFailure } from '../../lib/request.ts';
import { verificationQueryKey } from '../verification/queries.ts';

type Refusal = { ok: false; code: 'network' } | { ok: false; code: 'failed'; failure: Failure };
const refusal = (f: Failure): Refusal => (f.responseCode === ResponseCode.network ? { ok: false, code: 'network' } : { ok: false, code: 'failed', failure: f });

/** The queries other pages read that a saved certification changes (the verification banner's tax actions). */
const CHANGED_QUERIES = [verificationQueryKey] as const;

export interface BusinessCertificationDeps {
  queryClient?: { invalidateQueries(filters: { queryKey: readonly unknown[] }): Promise<unknown> } | null;
  /** where the browser goes to sign (window.location.assign; tests pass a spy) */
  openUrl?: (url: string) => void;
}

export function createBusinessCertificationActors(deps: BusinessCertificationDeps = {}) {
  const refresh = () => {
    for (const queryKey of CHANGED_QUERIES) void deps.queryClient?.invalidateQueries({ queryKey: [...queryKey] });
  };
  return {
    load: fromPromise<LoadResult>(async () => {
      const [certification, info, shareholders, directors, dictionaries] = await Promise.all([
        callMethod('businessFatcaCrsCertificationGet', {}),
        callMethod('businessInfoGet', {}),
        callMethod('businessShareholderList', {}),
        callMethod('businessDirectorList', {}),
        callMethod('dictionaries', {}),
      ]);
      if (isFailure(certification)) return refusal(certification);
      if (isFailure(info)) return refusal(info);
      if (isFailure(shareholders)) return refusal(shareholders);
      if (isFailure(directors)) return refusal(directors);
      if (isFailure(dictionaries)) return refusal(dictionaries);
      // the CRS controlling persons are natural persons: the corporate shareholders are not offered
      const people: PersonOption[] = distinctRepresentatives([directors.representatives], shareholders.shareholders)
        .filter((r) => r.type === 'person')
        .map((r) => ({
          representativeId: r.id,
          name: representativeName(r),
          roles: [...(r.positionIds.includes(2) ? (['director'] as const) : []), ...(r.positionIds.some((p) => p === 6 || p === 9) ? (['shareholder'] as const) : [])],
          countryCode: r.addresses[0]?.countryCode ?? r.countryCode ?? '',
        }));
      return {
        ok: true,
        answer: certification.certification,
        addresses: info.company.addresses.map(({ addressId, address1, address2, city, postalCode, countryCode }) => ({
          addressId,
          address1,
          address2,
          city,
          postalCode,
          countryCode,
        })),
        people,
        countries: dictionaries.dictionaries.dictionaryCountries.dictionary.country.map(({ code, name }) => ({ code, name })),
      };
    }),
    save: fromPromise<SaveResult, { request: BusinessCertification }>(async ({ input }) => {
      const answer = await callMethod('businessFatcaCrsCertificationUpdate', input.request);
      if (isFailure(answer)) {
        if (answer.responseCode === ResponseCode.validation && answer.validationErrors?.length) return { ok: false, code: 'fields', errors: answer.validationErrors };
        return refusal(answer);
      }
      refresh();
      return { ok: true, answer: answer.certification };
    }),
    sign: fromPromise<SignResult>(async () => {
      const answer = await callMethod('businessWFormUpload', {});
      if (isFailure(answer)) return refusal(answer);
      if (answer.signData.signUrls.length === 0) return { ok: false, code: 'failed', failure: { responseCode: ResponseCode.unknown } };
      return { ok: true, signData: answer.signData };
    }),
  };
}

/** The machine with the real actors and the browser's move to the signing page. */
export function createBusinessCertificationLogic(deps: BusinessCertificationDeps = {}) {
  const openUrl = deps.openUrl ?? ((url: string) => window.location.assign(url));
  return businessSelfCertificationMachine.provide({
    actors: createBusinessCertificationActors(deps),
    actions: {
      openSigning: (_, url: string | null) => {
        if (url) openUrl(url);
      },
    },
  });
}
