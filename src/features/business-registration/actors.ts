/**
 * Real I/O for the business registration wizard: the dictionaries, the draft (this browser's
 * localStorage, one key per registrant e-mail, and the platform's businessRegistrationDraft* calls
 * keyed by e-mail and this browser's device secret), the e-mail check and accountCreate.
 * Expected failures come back as `{ ok: false, code }`; nothing here logs the password, the draft
 * or the device secret.
 *
 * The draft's data travels to the platform as one JSON string (`{ json }`): the platform keeps it
 * opaque, and the app's answer normalisation (src/lib/request.ts) would otherwise turn the form's
 * digit-only strings (registration numbers, phones, amounts) into numbers.
 */
import { fromPromise } from 'xstate';
import { ResponseCode, type Failure } from '../../../api/envelope.ts';
import { BUSINESS_DRAFT_VERSION } from '../../../api/business-registration.ts';
import { VfCode } from '../../../api/errors.ts';
import { emailCheckState } from '../../../api/registration.ts';
import type {
  CreateBusinessResult,
  EmailCheckResult,
  LoadDictionariesResult,
  LoadDraftResult,
  SaveDraftInput,
  SaveDraftResult,
} from '../../../machines/business-registration/business-registration.machine.ts';
import { sectionOfParam, type BusinessRequest, type ServerFieldError } from '../../../machines/business-registration/business-registration.rules.ts';
import { callMethod, isFailure } from '../../lib/request.ts';

const failureCode = (f: Failure): 'network' | 'unknown' => (f.responseCode === ResponseCode.network ? 'network' : 'unknown');

/** localStorage keys: the draft per registrant e-mail ('' before one is known) and the e-mail last saved. */
export const LOCAL_DRAFT_PREFIX = 'businessRegistrationDraft:';
export const LOCAL_DRAFT_LAST = 'businessRegistrationDraft.last';
export const DEVICE_SECRET_KEY = 'businessRegistrationDeviceSecret';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** This browser's device secret (a random 128-bit value made once: api/business-registration.ts). */
export function deviceSecret(store: Storage | null = storage()): string {
  const kept = store?.getItem(DEVICE_SECRET_KEY);
  if (kept && /^[A-Za-z0-9_-]{22,64}$/.test(kept)) return kept;
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const secret = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  store?.setItem(DEVICE_SECRET_KEY, secret);
  return secret;
}

/** The draft last saved on this device, any version (the machine discards another version). */
export function readLocalDraft(store: Storage | null = storage()): LoadDraftResult {
  if (!store) return null;
  const email = store.getItem(LOCAL_DRAFT_LAST) ?? '';
  const raw = store.getItem(LOCAL_DRAFT_PREFIX + email);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as { version?: unknown; data?: unknown; savedAt?: unknown };
    return { version: typeof parsed.version === 'string' ? parsed.version : '', data: parsed.data, savedAt: typeof parsed.savedAt === 'string' ? parsed.savedAt : null };
  } catch {
    return { version: '', data: null, savedAt: null };
  }
}

export function writeLocalDraft(input: SaveDraftInput, savedAt: string, store: Storage | null = storage()): boolean {
  if (!store) return false;
  try {
    const email = input.email ?? '';
    store.setItem(LOCAL_DRAFT_PREFIX + email, JSON.stringify({ ...input.draft, savedAt }));
    store.setItem(LOCAL_DRAFT_LAST, email);
    // the draft typed before the e-mail was known now lives under the e-mail
    if (email) store.removeItem(LOCAL_DRAFT_PREFIX);
    return true;
  } catch {
    return false;
  }
}

export function removeLocalDraft(email: string | null, store: Storage | null = storage()): void {
  if (!store) return;
  store.removeItem(LOCAL_DRAFT_PREFIX + (email ?? ''));
  store.removeItem(LOCAL_DRAFT_PREFIX);
  store.removeItem(LOCAL_DRAFT_LAST);
}

export function businessRegistrationActors(options: { hideAdultIndustries: boolean }) {
  return {
    loadDictionaries: fromPromise<LoadDictionariesResult>(async () => {
      const [purposes, sources, industries, questions, personSources, agreements] = await Promise.all([
        callMethod('dictionaryBusinessPurposeOfAccount', {}),
        callMethod('dictionaryBusinessSourceOfFunds', {}),
        callMethod('dictionaryIndustry', { hideAdult: options.hideAdultIndustries }),
        callMethod('dictionaryBusinessAdditionalQuestion', {}),
        callMethod('dictionaryEmployeeSourceOfFunds', {}),
        callMethod('dictionaryPersonalAgreements', {}),
      ]);
      for (const a of [purposes, sources, industries, questions, personSources, agreements]) if (isFailure(a)) return { ok: false, code: failureCode(a) };
      if (isFailure(purposes) || isFailure(sources) || isFailure(industries) || isFailure(questions) || isFailure(personSources) || isFailure(agreements))
        return { ok: false, code: 'unknown' };
      return {
        ok: true,
        dictionaries: {
          purposes: purposes.purposeOfAccounts,
          sources: sources.sourceOfFunds,
          industries: industries.industry,
          questions: questions.additionalQuestions,
          personSources: personSources.sourceOfFunds,
          agreements: agreements.agreements,
        },
      };
    }),
    loadLocalDraft: fromPromise<LoadDraftResult>(async () => readLocalDraft()),
    loadPlatformDraft: fromPromise<LoadDraftResult, { email: string }>(async ({ input }) => {
      const answer = await callMethod('businessRegistrationDraftGet', { email: input.email, deviceSecret: deviceSecret() });
      if (isFailure(answer) || !answer.draft) return null;
      const json = answer.draft.data.json;
      let data: unknown = null;
      try {
        data = typeof json === 'string' ? JSON.parse(json) : null;
      } catch {
        data = null;
      }
      return { version: String(answer.draft.version), data, savedAt: answer.savedAt };
    }),
    saveDraft: fromPromise<SaveDraftResult, SaveDraftInput>(async ({ input }) => {
      const savedAt = new Date().toISOString();
      const local = writeLocalDraft(input, savedAt);
      if (!input.email) return { local, platform: 'skipped', savedAt };
      const answer = await callMethod('businessRegistrationDraftSave', {
        email: input.email,
        deviceSecret: deviceSecret(),
        draft: { version: BUSINESS_DRAFT_VERSION, data: { json: JSON.stringify(input.draft.data) } },
      }).catch(() => null);
      return { local, platform: answer && !isFailure(answer) ? 'saved' : 'failed', savedAt };
    }),
    deleteDraft: fromPromise<void, { email: string | null }>(async ({ input }) => {
      removeLocalDraft(input.email);
      if (input.email) await callMethod('businessRegistrationDraftDelete', { email: input.email, deviceSecret: deviceSecret() }).catch(() => null);
    }),
    checkEmail: fromPromise<EmailCheckResult, { email: string }>(async ({ input }) => {
      const answer = await callMethod('checkEmail', { email: input.email });
      if (isFailure(answer)) return { ok: false, code: failureCode(answer) };
      return { ok: true, state: emailCheckState(answer) };
    }),
    createBusiness: fromPromise<CreateBusinessResult, { request: BusinessRequest }>(async ({ input }) => {
      const answer = await callMethod('accountCreate', input.request as never);
      return createBusinessResult(answer);
    }),
  };
}

/** accountCreate's answer as the machine's result: VF mapped back to the section and field each names. */
export function createBusinessResult(answer: { responseCode: string } | Failure): CreateBusinessResult {
  if (!isFailure(answer)) return { ok: true };
  const failure = answer as Failure;
  if (failure.responseCode === ResponseCode.accessDenied) return { ok: false, code: 'closed' };
  if (failure.responseCode === ResponseCode.validation) {
    const list = failure.validationErrors ?? [];
    if (list.some((e) => e.param === 'email' && e.code === VfCode.alreadyRegistered)) return { ok: false, code: 'emailTaken' };
    const errors: ServerFieldError[] = list.map((e) => ({ ...sectionOfParam(String(e.param ?? '')), code: String(e.code ?? '') }));
    if (errors.length > 0) return { ok: false, code: 'fields', errors };
  }
  return { ok: false, code: failureCode(failure) };
}
