/** Named methods of registration and activation (api/registration.ts). */
import { EmailState, type registrationMethods } from '../../../api/registration.ts';
import { activeVariant } from '../../../variants/index.ts';
import type { HandlerTable } from '../method-types.ts';
import { createRegistrationService, type RegistrationOptions } from './registration.service.ts';

/** What the platform runs with unless app.ts says otherwise (the variant's own settings). */
export const DEFAULT_REGISTRATION_OPTIONS: RegistrationOptions = {
  now: Date.now,
  allowRegistration: activeVariant.registration.allowRegistration,
  personalTypes: activeVariant.registration.personalTypes,
  publicUrl: 'http://127.0.0.1:3000',
  projectName: activeVariant.projectName,
};

export function createRegistrationHandlers(options: RegistrationOptions): HandlerTable<typeof registrationMethods> {
  const service = createRegistrationService(options);
  return {
    async checkEmail(input, ctx) {
      const state = await service.checkEmail(ctx.db, input.email, ctx.ip);
      const exist = state !== EmailState.free;
      return { exist, exists: exist, isEmployee: state === EmailState.employee, outBlacklist: false };
    },

    async accountCreate(input, ctx) {
      const created = await service.createPersonalAccount(ctx.db, input);
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
