/** A bank. Registration happens in branches, so it is disabled online. Invented data. */
import type { VariantInput } from './schema.ts';

export const bank = {
  id: 'bank',
  projectName: 'Harbourline Bank',
  kind: 'bank',
  registration: {
    allowRegistration: false,
    personalTypes: ['individual'],
    businessTypes: ['limitedCompany', 'publicCompany', 'partnership'],
    hideAdultIndustries: true,
  },
  links: {
    termsUrl: 'https://harbourline-bank.example/terms',
    privacyUrl: 'https://harbourline-bank.example/privacy',
    feesPersonalUrl: 'https://harbourline-bank.example/tariffs/personal',
    feesBusinessUrl: 'https://harbourline-bank.example/tariffs/business',
  },
  support: { email: 'help@harbourline-bank.example', phone: '+353 1 555 0190', hours: { days: 'everyDay', opens: '07:00', closes: '22:00', timeZone: 'GMT' } },
  languages: ['en', 'es'],
  letter: {
    legalName: 'Harbourline Bank DAC',
    registrationNumber: '654321',
    address: '3 Quay Road, Dublin D02 X285, Ireland',
    regulator: 'Central Bank of Ireland',
    licence: 'Credit institution authorisation C-20931',
    signatoryName: 'Aoife Brennan',
    signatoryTitle: 'Director of Retail Banking',
  },
  theme: {
    bg: '#ffffff', surface: '#f1f6f4', fg: '#14201c', muted: '#46554f', border: '#62726b',
    primary: '#00594a', primaryFg: '#ffffff', danger: '#a4262c', success: '#1d6b38', warning: '#7a4b00',
    focus: '#00594a', radiusPx: 4,
  },
  api: {
    production: '',
    stagingTemplate: 'https://test{n}.harbourline-bank.example',
    ipInfoUrl: 'https://geo.harbourline-bank.example/ip',
  },
} as const satisfies VariantInput;
