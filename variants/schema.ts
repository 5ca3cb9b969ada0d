/**
 * A white-label variant is data only (DESIGN.md "Variants"): the web app and the platform both
 * import it, so it stays plain TypeScript without DOM or React. Every variant is validated by
 * this schema in a unit test (tests/unit/variants.test.ts), including its colour contrast.
 */
import * as v from 'valibot';

export const variantIds = ['wallet', 'bank', 'payments', 'lt-amber', 'lt-neris', 'uk-emoney'] as const;
export type VariantId = (typeof variantIds)[number];

const uiLang = v.picklist(['en', 'es', 'pt', 'ro', 'ru', 'uk', 'au']);
const hexColour = v.pipe(v.string(), v.regex(/^#[0-9a-f]{6}$/i, 'must be a #rrggbb colour'));
const httpsUrl = v.pipe(v.string(), v.url(), v.startsWith('https://', 'must be an https URL'));
const nonEmpty = v.pipe(v.string(), v.trim(), v.minLength(1, 'is required'), v.maxLength(200));

const clock = v.pipe(v.string(), v.regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, 'must be a time HH:MM'));

/**
 * Support opening hours: which days, from when to when, in which time zone. The zone is a label
 * (CET, EET, GMT, or UK for the United Kingdom's own time) rather than an IANA zone: a customer
 * reads the label, and rendering an IANA zone's name differs between ICU versions.
 */
export const SupportHoursSchema = v.pipe(
  v.object({
    days: v.picklist(['monFri', 'monSat', 'everyDay']),
    opens: clock,
    closes: clock,
    timeZone: v.picklist(['CET', 'EET', 'GMT', 'UK']),
  }),
  v.check((h) => h.opens < h.closes, 'must close after it opens'),
);
export type SupportHours = v.InferOutput<typeof SupportHoursSchema>;

/** The number of numbered staging environments (document 1 §9). */
export const STAGING_COUNT = 15;

export const ThemeSchema = v.object({
  bg: hexColour,
  surface: hexColour,
  fg: hexColour,
  muted: hexColour,
  border: hexColour,
  primary: hexColour,
  primaryFg: hexColour,
  danger: hexColour,
  success: hexColour,
  warning: hexColour,
  focus: hexColour,
  radiusPx: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(24)),
});
export type Theme = v.InferOutput<typeof ThemeSchema>;

export const VariantSchema = v.object({
  id: v.picklist(variantIds),
  /** the project name shown in the header, the title and letters */
  projectName: nonEmpty,
  kind: v.picklist(['wallet', 'bank', 'paymentInstitution', 'lithuanianProvider', 'ukEmoney']),
  registration: v.object({
    /** false: every registration route returns to login (document 1 §1) */
    allowRegistration: v.boolean(),
    personalTypes: v.pipe(v.array(v.picklist(['individual', 'soleTrader'])), v.minLength(1)),
    businessTypes: v.pipe(
      v.array(v.picklist(['limitedCompany', 'publicCompany', 'partnership', 'soleProprietorship', 'association', 'foundation'])),
      v.minLength(1),
    ),
    /** hide the adult industry group in business registration */
    hideAdultIndustries: v.boolean(),
    /**
     * source-of-wealth is enabled: an ultimate beneficial owner of a business registration gives
     * source-of-funds details (document 3 §5); on unless a variant turns it off
     */
    sourceOfWealth: v.optional(v.boolean(), true),
  }),
  links: v.object({
    termsUrl: httpsUrl,
    privacyUrl: httpsUrl,
    feesPersonalUrl: httpsUrl,
    feesBusinessUrl: httpsUrl,
  }),
  support: v.object({
    email: v.pipe(v.string(), v.email()),
    phone: v.pipe(v.string(), v.regex(/^\+[0-9 ]{7,20}$/, 'must be an international phone number')),
    /** opening hours as data, so the web footer and the PDFs write them in each language (support-hours.ts) */
    hours: SupportHoursSchema,
  }),
  /** UI languages; English must be one of them (the default). */
  languages: v.pipe(
    v.array(uiLang),
    v.minLength(1),
    v.check((list) => list.includes('en'), 'must include en'),
    v.check((list) => new Set(list).size === list.length, 'must not repeat a language'),
  ),
  /** data printed on the account-confirmation letter */
  letter: v.object({
    legalName: nonEmpty,
    registrationNumber: nonEmpty,
    address: nonEmpty,
    regulator: nonEmpty,
    licence: nonEmpty,
    signatoryName: nonEmpty,
    signatoryTitle: nonEmpty,
  }),
  theme: ThemeSchema,
  api: v.object({
    /** '' means the same origin as the web app */
    production: v.union([v.literal(''), httpsUrl]),
    /** staging base with `{n}` standing for 1-15 */
    stagingTemplate: v.pipe(httpsUrl, v.includes('{n}', 'must contain {n}')),
    /** IP info check service (privacy check), per variant */
    ipInfoUrl: httpsUrl,
    /** an external support desk speaking api/support.ts DESK_PATHS; absent: the platform's built-in desk (/api/v1) */
    supportDeskBase: v.optional(httpsUrl),
  }),
});
export type Variant = v.InferOutput<typeof VariantSchema>;
export type VariantInput = v.InferInput<typeof VariantSchema>;

/** WCAG 2 relative luminance of a #rrggbb colour. */
export function relativeLuminance(hex: string): number {
  const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio between two colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The staging base for environment n (1-15). */
export function stagingBase(variant: Pick<Variant, 'api'>, n: number): string {
  if (!Number.isInteger(n) || n < 1 || n > STAGING_COUNT) throw new RangeError(`staging environment must be 1-${STAGING_COUNT}`);
  return variant.api.stagingTemplate.replace('{n}', String(n));
}
