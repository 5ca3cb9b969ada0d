/**
 * The texts of the statements a company of the adult industry group accepts (api/business-declarations.ts):
 * the representative's studio and streaming declarations and the company's prohibited-escort
 * statement, each with its version. A changed text gets a new version: acceptances of the old one
 * stay on record under it, and a send naming the old version is refused (VF textNotCurrent).
 *
 * English only, as the contract's header says: the binding wording of a legal statement is the
 * provider's reviewed text; this platform holds no reviewed translations. `{provider}` is replaced
 * by the variant's legal name and `{company}` by the company's name when the text is shown.
 *
 * Which industries ask for which statement (dictionaryIndustry ids, group `adult`, server/modules/
 * dictionaries/data/industries.ts): 401 adult content creation, 402 adult live streaming and webcam
 * studios; every industry of the group asks for the escort statement.
 */
import { createHash } from 'node:crypto';
import type { StatementKind } from '../../../api/business-declarations.ts';

export interface StatementText {
  version: string;
  title: string;
  /** paragraphs separated by blank lines */
  text: string;
}

export const STATEMENT_TEXTS: Record<StatementKind, StatementText> = {
  studio: {
    version: 'studio-2026-1',
    title: 'Studio declaration',
    text: [
      'I declare, as a representative of {company}, that every studio the company operates or contracts with, in person or online:',
      '1. engages only performers who are at least 18 years old, whose age and identity the company verified from a valid government-issued photo identity document before their first session, and whose records it keeps for at least five years after their last session;',
      '2. engages performers only with their free, informed and written consent, which they may withdraw at any time, and never under coercion, debt bondage or the control of a third party;',
      '3. pays performers directly into accounts in their own names, and keeps records of every payment;',
      '4. holds the licences and permits its premises and activity need where it operates, and complies with labour, health and safety law there;',
      '5. will tell {provider} within 10 days of any change to these facts, and will give {provider} the records above on request.',
      'I understand that a false declaration is a ground for closing the company’s accounts and may be reported to the authorities.',
    ].join('\n\n'),
  },
  streaming: {
    version: 'streaming-2026-1',
    title: 'Streaming and content declaration',
    text: [
      'I declare, as a representative of {company}, that all content the company produces, streams, hosts or sells:',
      '1. shows only persons who were at least 18 years old when it was made, whose age, identity and written consent to its making and publication the company verified and keeps on record;',
      '2. is removed within 24 hours when a person shown in it withdraws their consent to its publication, or when it is reported as unlawful and the report is founded;',
      '3. never shows minors, non-consensual acts, or anything unlawful where it is made or offered;',
      '4. is offered only to viewers whose age of at least 18 the company or its platform verifies;',
      '5. is handled under a written complaint and removal procedure that the company will give {provider} on request.',
      'I will tell {provider} within 10 days of any change to these facts, and I understand that a false declaration is a ground for closing the company’s accounts and may be reported to the authorities.',
    ].join('\n\n'),
  },
  prohibitedEscort: {
    version: 'escort-2026-1',
    title: 'Prohibited escort services statement',
    text: [
      '{company} states that it does not offer, arrange, advertise or take payment for escort services, sexual services in person, or any service that facilitates prostitution or human trafficking, directly or through anyone acting for it, and that it will not use its accounts with {provider} to receive or send payments for such services.',
      'The company will end any relationship with a customer, performer or partner it finds offering such services through it, and will tell {provider} at once.',
      'The company understands that {provider} closes the accounts of a company acting against this statement and reports it to the authorities where the law requires.',
    ].join('\n\n'),
  },
};

/** The industries (dictionaryIndustry ids) whose companies are asked for each declaration; the escort statement: the whole adult group. */
export const DECLARATION_INDUSTRIES: Record<'studio' | 'streaming', readonly number[]> = {
  studio: [402],
  streaming: [401, 402],
};

/** The text as shown to the company: its placeholders filled. */
export function statementFor(kind: StatementKind, names: { provider: string; company: string }): StatementText & { sha256: string } {
  const base = STATEMENT_TEXTS[kind];
  const fill = (s: string) => s.replaceAll('{provider}', names.provider).replaceAll('{company}', names.company);
  const title = fill(base.title);
  const text = fill(base.text);
  return { version: base.version, title, text, sha256: createHash('sha256').update(`${title}\n\n${text}`).digest('hex') };
}
