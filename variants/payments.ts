/** A payments institution. Invented data. */
import type { VariantInput } from './schema.ts';

export const payments = {
  id: 'payments',
  projectName: 'Meridian Payments',
  kind: 'paymentInstitution',
  registration: {
    allowRegistration: true,
    personalTypes: ['individual', 'soleTrader'],
    businessTypes: ['limitedCompany', 'publicCompany', 'partnership', 'association', 'foundation'],
    hideAdultIndustries: false,
  },
  links: {
    termsUrl: 'https://meridian-payments.example/terms-and-conditions',
    privacyUrl: 'https://meridian-payments.example/privacy-notice',
    feesPersonalUrl: 'https://meridian-payments.example/pricing/personal',
    feesBusinessUrl: 'https://meridian-payments.example/pricing/business',
  },
  support: { email: 'care@meridian-payments.example', phone: '+40 21 555 0142', hours: { days: 'monSat', opens: '09:00', closes: '18:00', timeZone: 'EET' } },
  languages: ['en', 'es', 'pt', 'ro', 'ru', 'uk'],
  letter: {
    legalName: 'Meridian Payments S.A.',
    registrationNumber: 'J40/1234/2019',
    address: 'Bulevardul Unirii 21, 030823 Bucharest, Romania',
    regulator: 'National Bank of Romania',
    licence: 'Payment institution licence IP-0093',
    signatoryName: 'Andrei Popescu',
    signatoryTitle: 'Chief Compliance Officer',
  },
  theme: {
    bg: '#ffffff', surface: '#f6f3fa', fg: '#1f1a26', muted: '#514a5c', border: '#6f6880',
    primary: '#5b2a86', primaryFg: '#ffffff', danger: '#b3261e', success: '#1e6b34', warning: '#7a4b00',
    focus: '#5b2a86', radiusPx: 10,
  },
  api: {
    production: '',
    stagingTemplate: 'https://api-stage{n}.meridian-payments.example',
    ipInfoUrl: 'https://ip.meridian-payments.example/info',
  },
} as const satisfies VariantInput;
