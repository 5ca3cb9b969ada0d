/** A payments wallet. Brand and company data are invented. */
import type { VariantInput } from './schema.ts';

export const wallet = {
  id: 'wallet',
  projectName: 'Lumen Wallet',
  kind: 'wallet',
  registration: {
    allowRegistration: true,
    personalTypes: ['individual'],
    businessTypes: ['limitedCompany', 'soleProprietorship'],
    hideAdultIndustries: true,
  },
  links: {
    termsUrl: 'https://lumen-wallet.example/legal/terms',
    privacyUrl: 'https://lumen-wallet.example/legal/privacy',
    feesPersonalUrl: 'https://lumen-wallet.example/fees/personal',
    feesBusinessUrl: 'https://lumen-wallet.example/fees/business',
  },
  support: { email: 'support@lumen-wallet.example', phone: '+44 20 4500 1200', hours: { days: 'monFri', opens: '08:00', closes: '20:00', timeZone: 'CET' } },
  languages: ['en', 'es', 'pt', 'ro', 'ru', 'uk', 'au'],
  letter: {
    legalName: 'Lumen Wallet Services Ltd',
    registrationNumber: 'C 81234',
    address: '12 Harbour Street, Valletta VLT 1100, Malta',
    regulator: 'Malta Financial Services Authority',
    licence: 'Electronic money institution licence EMI-0451',
    signatoryName: 'Clara Vidal',
    signatoryTitle: 'Head of Customer Operations',
  },
  theme: {
    bg: '#ffffff', surface: '#f3f5f8', fg: '#1b1f24', muted: '#4a5360', border: '#6b7480',
    primary: '#0b5cad', primaryFg: '#ffffff', danger: '#b3261e', success: '#1e6b34', warning: '#7a4b00',
    focus: '#0b5cad', radiusPx: 8,
  },
  api: {
    production: '',
    stagingTemplate: 'https://stage{n}.api.lumen-wallet.example',
    ipInfoUrl: 'https://ipinfo.lumen-wallet.example/check',
  },
} as const satisfies VariantInput;
