/** A UK e-money provider. Onboarding is by invitation, so online registration is off. Invented data. */
import type { VariantInput } from './schema.ts';

export const ukEmoney = {
  id: 'uk-emoney',
  projectName: 'Thistlegate Money',
  kind: 'ukEmoney',
  registration: {
    allowRegistration: false,
    personalTypes: ['individual', 'soleTrader'],
    businessTypes: ['limitedCompany', 'partnership'],
    hideAdultIndustries: true,
  },
  links: {
    termsUrl: 'https://thistlegate.example/legal/terms',
    privacyUrl: 'https://thistlegate.example/legal/privacy',
    feesPersonalUrl: 'https://thistlegate.example/fees#personal',
    feesBusinessUrl: 'https://thistlegate.example/fees#business',
  },
  support: { email: 'support@thistlegate.example', phone: '+44 131 555 0175', hours: { days: 'monFri', opens: '09:00', closes: '17:30', timeZone: 'UK' } },
  languages: ['en', 'es', 'pt', 'ro', 'ru', 'uk', 'au'],
  letter: {
    legalName: 'Thistlegate Money Ltd',
    registrationNumber: 'SC712345',
    address: '8 Castle Terrace, Edinburgh EH1 2DP, United Kingdom',
    regulator: 'Financial Conduct Authority',
    licence: 'Authorised electronic money institution, FRN 900123',
    signatoryName: 'Fiona MacLeod',
    signatoryTitle: 'Money Laundering Reporting Officer',
  },
  theme: {
    bg: '#fbfaf7', surface: '#f0eee8', fg: '#161b26', muted: '#4a5163', border: '#6a7083',
    primary: '#1d3557', primaryFg: '#ffffff', danger: '#a4262c', success: '#1d6b38', warning: '#74470a',
    focus: '#1d3557', radiusPx: 4,
  },
  api: {
    production: '',
    stagingTemplate: 'https://uat{n}.thistlegate.example',
    ipInfoUrl: 'https://ip.thistlegate.example/check',
  },
} as const satisfies VariantInput;
