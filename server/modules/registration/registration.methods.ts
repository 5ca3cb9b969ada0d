/** Named methods of registration and activation (api/registration.ts) and the business registration's draft (api/business-registration.ts). */
import { EmailState, type registrationMethods } from '../../../api/registration.ts';
import type { BusinessRegistration, businessRegistrationMethods } from '../../../api/business-registration.ts';
import { createBusinessDraftHandlers } from './business-drafts.ts';
import { activeVariant } from '../../../variants/index.ts';
import { MethodFailure, type HandlerTable, type MethodContext } from '../method-types.ts';
import { VfCode, vf } from '../../../api/errors.ts';
import { createRegistrationService, type RegistrationOptions } from './registration.service.ts';

/** What the platform runs with unless app.ts says otherwise (the variant's own settings). */
export const DEFAULT_REGISTRATION_OPTIONS: RegistrationOptions = {
  now: Date.now,
  allowRegistration: activeVariant.registration.allowRegistration,
  personalTypes: activeVariant.registration.personalTypes,
  publicUrl: 'http://127.0.0.1:3000',
  projectName: activeVariant.projectName,
  sourceOfWealth: activeVariant.registration.sourceOfWealth,
  hideAdultIndustries: activeVariant.registration.hideAdultIndustries,
};

/** The parts a business registration must give (ultimateBeneficiaryOwners and companyList read as empty when left out). */
const BUSINESS_REQUIRED = ['company', 'financialDetail', 'dueDiligence', 'authorizedCompanyRepresentative', 'legalInformation', 'directors', 'shareholders', 'users', 'personList'] as const;
/** Personal registration's own fields: a business registration takes them from its people, never beside them. */
const PERSONAL_ONLY = ['personalType', 'firstName', 'lastName', 'residenceCountryCode', 'phoneCountryCode', 'phone'] as const;

type AccountCreateInput = Parameters<HandlerTable<typeof registrationMethods>['accountCreate']>[0];

export function createRegistrationHandlers(options: RegistrationOptions): HandlerTable<typeof registrationMethods & typeof businessRegistrationMethods> {
  const service = createRegistrationService(options);
  /** A business registration (api/business-registration.ts): every required part present, then the rules and the store. */
  const registerBusiness = async (input: AccountCreateInput, ctx: MethodContext): Promise<Record<string, never>> => {
    const missing = BUSINESS_REQUIRED.filter((k) => input[k] === undefined);
    const extra = PERSONAL_ONLY.filter((k) => input[k] !== undefined);
    if (missing.length + extra.length > 0) {
      throw new MethodFailure('VF', 'Invalid request', [...missing.map((k) => vf(k, VfCode.required)), ...extra.map((k) => vf(k, VfCode.fieldNotTaken))]);
    }
    const reg: BusinessRegistration = {
      company: input.company!,
      financialDetail: input.financialDetail!,
      dueDiligence: input.dueDiligence!,
      authorizedCompanyRepresentative: input.authorizedCompanyRepresentative!,
      legalInformation: input.legalInformation!,
      directors: input.directors!,
      ultimateBeneficiaryOwners: input.ultimateBeneficiaryOwners ?? [],
      shareholders: input.shareholders!,
      users: input.users!,
      personList: input.personList!,
      companyList: input.companyList ?? [],
      additionalQuestionAnswers: input.additionalQuestionAnswers ?? {},
      captcha: input.captcha,
      device: input.device,
    };
    const created = await service.createBusinessAccount(ctx.db, reg, input.password, input.email, ctx.ip);
    // Ids only: no name, e-mail, address or password in the audit log.
    ctx.audit({
      registered: 'business',
      customerId: created.customerId,
      userId: created.ownerUserId,
      userIds: created.userIds,
      representativeIds: created.representativeIds,
    });
    return {};
  };
  return {
    ...createBusinessDraftHandlers({ now: options.now }),

    async checkEmail(input, ctx) {
      const state = await service.checkEmail(ctx.db, input.email, ctx.ip);
      const exist = state !== EmailState.free;
      return { exist, exists: exist, isEmployee: state === EmailState.employee, outBlacklist: false };
    },

    async accountCreate(input, ctx) {
      if (input.company !== undefined) return registerBusiness(input, ctx);
      // A personal registration: its fields are optional in the one schema (a business one has others).
      const missing = (['personalType', 'firstName', 'lastName', 'email', 'residenceCountryCode'] as const).filter((k) => input[k] === undefined);
      if (missing.length > 0) throw new MethodFailure('VF', 'Invalid request', missing.map((k) => vf(k, VfCode.required)));
      const created = await service.createPersonalAccount(ctx.db, {
        ...input,
        personalType: input.personalType!,
        firstName: input.firstName!,
        lastName: input.lastName!,
        email: input.email!,
        residenceCountryCode: input.residenceCountryCode!,
      });
      // Ids only: the audit log holds no password and no address.
      ctx.audit({ registered: 'personal', personalType: input.personalType, userId: created.userId, customerId: created.customerId });
      return {};
    },

    async activateAccount(input, ctx) {
      await service.activate(ctx.db, 'activation', input.username, input.activationCode);
      return {};
    },

    async businessAccountActivate(input, ctx) {
      await service.activate(ctx.db, 'businessActivation', input.email, input.activationCode);
      return {};
    },

    async employeeAccountActivate(input, ctx) {
      await service.activate(ctx.db, 'employeeActivation', input.email, input.activationCode, input.password);
      return {};
    },

    async activationCodeResend(input, ctx) {
      // Audited (in the service's own transaction) only when a code went out; the answer never says.
      await service.resend(ctx.db, input.email);
      return {};
    },
  };
}

/** The table entry (server/modules/platform/method-table.ts); app.ts replaces it with its options. */
export const registrationHandlers = createRegistrationHandlers(DEFAULT_REGISTRATION_OPTIONS);
