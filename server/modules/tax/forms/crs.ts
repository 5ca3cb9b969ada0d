/**
 * The tax residency self-certification (CRS) after the OECD's model forms, for a person or an
 * entity, in the customer's language with the English under each heading and label and after the
 * declaration (the reviewer and a foreign tax authority read English; the customer reads their
 * own). A4: a European form, not an IRS one.
 *
 * - Every tax residence (the certification's taxIds, the US included: the customer declares all
 *   of them) with its TIN or the model's reason code: A the country does not issue TINs
 *   (COUNTRY_DOES_NOT_ISSUE), B the holder cannot obtain one, with the explanation
 *   (CANNOT_OBTAIN), C no TIN is required (NO_TIN_IS_REQUIRED).
 * - An entity's CRS classification (crsEntityClass): a financial institution
 *   (isFinancialInstitution, with its GIIN or why none), else an active NFE whose stock is traded
 *   (isPubliclyTraded), a related entity of a traded corporation (isOwnPubliclyTradedCompany),
 *   a passive NFE (isPassiveEntity: mostly passive income, or an investment entity not managed
 *   by a financial institution), or another active NFE. A passive NFE's controlling persons are
 *   listed with their tax residence countries; each gives a self-certification of their own (the
 *   model's controlling person form), which the spec does not ask here.
 */
import { isFinancialInstitution, isPassiveEntity, type BusinessCertification, type TaxIdEntry, type TinMissingReason } from '../../../../api/tax-certification.ts';
import { addressOneLine, countryName, formFileName, isoDay, sameAddress } from './common.ts';
import { crsWords, type CrsWords } from './crs-words.ts';
import { FormLayout, type Cell } from './layout.ts';
import type { TaxFormDocument, TaxFormInput } from './types.ts';

export const REASON_CODES: Record<TinMissingReason, 'A' | 'B' | 'C'> = { COUNTRY_DOES_NOT_ISSUE: 'A', CANNOT_OBTAIN: 'B', NO_TIN_IS_REQUIRED: 'C' };

export type CrsEntityClass = 'financialInstitution' | 'activeListed' | 'activeRelated' | 'activeOther' | 'passive';

export function crsEntityClass(c: BusinessCertification): CrsEntityClass {
  if (isFinancialInstitution(c)) return 'financialInstitution';
  if (c.entityType === 'general' && c.isPubliclyTraded === true) return 'activeListed';
  if (c.entityType === 'general' && c.isOwnPubliclyTradedCompany === true) return 'activeRelated';
  if (isPassiveEntity(c)) return 'passive';
  return 'activeOther';
}

/** The reason cell of a tax residence without a TIN: "B: explanation". */
export function reasonLine(t: TaxIdEntry): string {
  if (t.taxId || !t.tinMissingReason) return '';
  const code = REASON_CODES[t.tinMissingReason];
  return code === 'B' && t.tinMissingExplanation ? `${code}: ${t.tinMissingExplanation}` : code;
}

export async function renderCrs(input: TaxFormInput): Promise<TaxFormDocument> {
  const s = input.subject;
  const lang = input.lang;
  const w = crsWords[lang];
  const e = crsWords.en;
  const bilingual = lang !== 'en';
  const sub = (pick: (words: CrsWords) => string) => (bilingual ? pick(e) : undefined);
  const cell = (pick: (words: CrsWords) => string, value: string | string[], width?: number): Cell => ({ label: pick(w), sub: sub(pick), value, width });
  const title = s.kind === 'personal' ? w.titleIndividual : w.titleEntity;
  const form = new FormLayout({ title, author: input.providerName, lang, createdAt: new Date(input.nowMs), size: 'A4' });
  let partNo = 0;
  const part = (pick: (words: CrsWords) => string) => {
    partNo += 1;
    form.gap(partNo === 1 ? 0 : 8);
    form.part(`${w.part} ${partNo}`, pick(w), bilingual ? `${e.part} ${partNo}: ${pick(e)}` : undefined);
  };

  form.header({
    form: 'CRS',
    formNote: [w.subtitle, ...(bilingual ? [e.subtitle] : [])],
    title: [title, ...(bilingual ? [s.kind === 'personal' ? e.titleIndividual : e.titleEntity] : [])],
    notes: [w.intro(input.providerName)],
    aside: [input.providerName, isoDay(input.nowMs)],
  });

  if (s.kind === 'personal') {
    const c = s.certification;
    part((x) => x.partIdentIndividual);
    form.row([cell((x) => x.name, `${s.firstName} ${s.lastName}`.trim())]);
    form.row([cell((x) => x.residenceAddress, s.address ? addressOneLine(s.address, lang) : '')]);
    form.row([cell((x) => x.dateOfBirth, c.dateOfBirth, 1), cell((x) => x.placeOfBirth, `${c.cityOfBirth}, ${countryName(c.countryOfBirth, lang)}`, 2)]);
  } else {
    const c = s.certification;
    part((x) => x.partIdentEntity);
    form.row([cell((x) => x.legalName, s.name)]);
    form.row([cell((x) => x.countryOfIncorporation, countryName(c.registrationCountryCode, lang), 1), cell((x) => x.registrationNumber, s.registrationNumber ?? '', 1)]);
    const registered = s.registeredAddress ?? s.placeOfBusiness;
    form.row([cell((x) => x.registeredAddress, registered ? addressOneLine(registered, lang) : '')]);
    if (s.placeOfBusiness && !sameAddress(s.placeOfBusiness, registered)) form.row([cell((x) => x.placeOfBusiness, addressOneLine(s.placeOfBusiness, lang))]);

    part((x) => x.partEntityType);
    const cls = crsEntityClass(c);
    const checks: { cls: CrsEntityClass; pick: (words: CrsWords) => string }[] = [
      { cls: 'financialInstitution', pick: (x) => x.financialInstitution },
      { cls: 'activeListed', pick: (x) => x.activeListed },
      { cls: 'activeRelated', pick: (x) => x.activeRelated },
      { cls: 'activeOther', pick: (x) => x.activeOther },
      { cls: 'passive', pick: (x) => x.passive },
    ];
    form.gap(3);
    form.checks(
      checks.map((k) => ({ checked: k.cls === cls, text: bilingual ? `${k.pick(w)} / ${k.pick(e)}` : k.pick(w) })),
      { size: 8 },
    );
    form.rule();
    if (cls === 'financialInstitution') {
      const giin = c.giin ?? (c.giinMissingReason ? `— ${w.giinMissing[c.giinMissingReason]}${bilingual ? ` / ${e.giinMissing[c.giinMissingReason]}` : ''}` : '');
      form.row([cell((x) => x.giin, giin)]);
    } else if (cls === 'activeListed') {
      form.row([cell((x) => x.market, c.companySecurityMarket ?? '', 2), cell((x) => x.ticker, c.companyTicket ?? '', 1)]);
    } else if (cls === 'activeRelated' && c.companyOwnedByYou) {
      const listed = c.companyOwnedByYou;
      form.row([cell((x) => x.listedCompany, listed.name, 2), cell((x) => x.market, listed.market, 2), cell((x) => x.ticker, listed.ticket, 1)]);
    }
  }

  part((x) => x.partResidence);
  for (const t of s.certification.taxIds) {
    form.row([cell((x) => x.country, countryName(t.countryCode, lang), 1.2), cell((x) => x.tin, t.taxId ?? '', 1.2), cell((x) => x.noTinReason, reasonLine(t), 1.6)]);
  }
  form.gap(3);
  for (const code of ['A', 'B', 'C'] as const) {
    form.paragraph(`${code}  ${w.reasons[code]}${bilingual ? ` / ${e.reasons[code]}` : ''}`, { size: 7, color: '#555555', after: 1 });
  }

  if (s.kind === 'business' && crsEntityClass(s.certification) === 'passive') {
    part((x) => x.partControlling);
    form.paragraph(w.controllingIntro + (bilingual ? ` / ${e.controllingIntro}` : ''), { size: 7.5 });
    for (const person of s.controllingPersons) {
      form.row([cell((x) => x.name, person.name, 2), cell((x) => x.country, countryName(person.taxResidenceCountryCode, lang), 1)]);
    }
  }

  part((x) => x.partDeclaration);
  const declaration = (words: CrsWords) => (s.kind === 'personal' ? words.declarationIndividual(input.providerName) : words.declarationEntity(input.providerName));
  form.gap(3);
  form.paragraph(declaration(w), { size: 8, after: 4 });
  if (bilingual) form.paragraph(declaration(e), { size: 7, color: '#555555', after: 4 });
  const signerName = s.kind === 'personal' ? `${s.firstName} ${s.lastName}`.trim() : s.signerName;
  const both = (pick: (words: CrsWords) => string) => (bilingual ? `${pick(w)} / ${pick(e)}` : pick(w));
  const signatureBox = form.signature({
    label: w.signature,
    caption: both((x) => x.signatureCaption),
    lines: [{ label: both((x) => x.signerName), value: signerName }, ...(s.kind === 'business' ? [{ label: both((x) => x.capacity), value: s.signerCapacity }] : [])],
  });
  form.footers(`${title} · ${input.providerName}`, (i, n) => w.page(i, n));
  const pdf = await form.finish();
  const fileName = formFileName('CRS-self-certification', s.kind === 'personal' ? s.lastName : s.name, input.nowMs);
  return { kind: 'taxResidencySelfCertification', title, fileName, pdf: new Uint8Array(pdf), signatureBox };
}
