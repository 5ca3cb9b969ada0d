/** A Lithuanian-licensed electronic money provider. Invented data. */
import type { VariantInput } from './schema.ts';

export const ltAmber = {
  id: 'lt-amber',
  projectName: 'Amberline Pay',
  kind: 'lithuanianProvider',
  registration: {
    allowRegistration: true,
    personalTypes: ['individual'],
    businessTypes: ['limitedCompany', 'publicCompany', 'soleProprietorship'],
    hideAdultIndustries: true,
  },
  links: {
    termsUrl: 'https://amberline-pay.example/en/terms',
    privacyUrl: 'https://amberline-pay.example/en/privacy',
    feesPersonalUrl: 'https://amberline-pay.example/en/fees-personal',
    feesBusinessUrl: 'https://amberline-pay.example/en/fees-business',
  },
  support: { email: 'support@amberline-pay.example', phone: '+370 5 214 0000', hours: { days: 'monFri', opens: '09:00', closes: '18:00', timeZone: 'EET' } },
  languages: ['en', 'es', 'ru', 'uk'],
  letter: {
    legalName: 'UAB Amberline Pay',
    registrationNumber: '305123456',
    address: 'Gedimino pr. 20, LT-01103 Vilnius, Lithuania',
    regulator: 'Bank of Lithuania',
    licence: 'Electronic money institution licence No. 71',
    signatoryName: 'Rūta Kazlauskienė',
    signatoryTitle: 'Chief Executive Officer',
  },
  theme: {
    bg: '#ffffff', surface: '#fbf6ee', fg: '#221a10', muted: '#574a39', border: '#7a6a55',
    primary: '#8a4500', primaryFg: '#ffffff', danger: '#b3261e', success: '#1e6b34', warning: '#6e4300',
    focus: '#8a4500', radiusPx: 6,
  },
  api: {
    production: '',
    stagingTemplate: 'https://staging-{n}.amberline-pay.example',
    ipInfoUrl: 'https://ipcheck.amberline-pay.example/v1',
  },
} as const satisfies VariantInput;
