/** A second Lithuanian-licensed payment provider. Invented data. */
import type { VariantInput } from './schema.ts';

export const ltNeris = {
  id: 'lt-neris',
  projectName: 'Neris Money',
  kind: 'lithuanianProvider',
  registration: {
    allowRegistration: true,
    personalTypes: ['individual'],
    businessTypes: ['limitedCompany', 'partnership'],
    hideAdultIndustries: false,
  },
  links: {
    termsUrl: 'https://neris-money.example/terms',
    privacyUrl: 'https://neris-money.example/privacy',
    feesPersonalUrl: 'https://neris-money.example/fees/private',
    feesBusinessUrl: 'https://neris-money.example/fees/corporate',
  },
  support: { email: 'hello@neris-money.example', phone: '+370 37 555 120', hours: { days: 'monFri', opens: '08:00', closes: '17:00', timeZone: 'EET' } },
  languages: ['en', 'es'],
  letter: {
    legalName: 'UAB Neris Money',
    registrationNumber: '306654321',
    address: 'Laisvės al. 45, LT-44299 Kaunas, Lithuania',
    regulator: 'Bank of Lithuania',
    licence: 'Payment institution licence No. 38',
    signatoryName: 'Tomas Petrauskas',
    signatoryTitle: 'Head of Operations',
  },
  theme: {
    bg: '#ffffff', surface: '#eef6f8', fg: '#102025', muted: '#42555b', border: '#5f7379',
    primary: '#005a70', primaryFg: '#ffffff', danger: '#a4262c', success: '#1d6b38', warning: '#7a4b00',
    focus: '#005a70', radiusPx: 2,
  },
  api: {
    production: '',
    stagingTemplate: 'https://stage{n}.neris-money.example',
    ipInfoUrl: 'https://ipinfo.neris-money.example/lookup',
  },
} as const satisfies VariantInput;
