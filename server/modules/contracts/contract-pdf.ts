/**
 * The revenue-split contract as a PDF (document 3 §3 Contract, §7 pdfUrl and generator_pdf), in
 * the house style of the platform's documents (history/pdf-document.ts: DejaVu Sans embedded,
 * tagged PDF, the provider's legal footer on every page, a fixed creation date so the same data
 * gives the same bytes).
 *
 * In the initiator's language (six languages, the words below; the spec shows no wording: this is
 * the usual form of a revenue-sharing agreement): the parties with their customer numbers and
 * signers, the share, the start date, each side's obligations, the note, the termination notice,
 * then one signature box per side. The boxes are where the e-signature adapter stamps each side's
 * signature (signatureBoxes, in PDF points from the page's bottom-left as the port asks); the
 * second signer signs the first signer's stamped PDF, so the last signed file carries both.
 */
import { SIGNING_DAYS, TERMINATION_NOTICE_DAYS } from '../../../api/contracts.ts';
import { activeVariant } from '../../../variants/index.ts';
import type { SignatureDocumentInput } from '../esign/esign.ts';
import type { DocumentLanguage } from '../history/document-words.ts';
import { wordsFor } from '../history/document-words.ts';
import { CONTENT_RIGHT, PAGE, PdfCanvas, drawFooters, footerLineCount, footerLines, footerTop, utcMinute } from '../history/pdf-document.ts';

export interface ContractPdfParty {
  id: number;
  name: string;
  signerName: string;
  obligations: readonly string[];
}

export interface ContractPdfData {
  lang: DocumentLanguage;
  providerName: string;
  /** null for a draft's preview (marked as such) */
  contractId: number | null;
  sender: ContractPdfParty;
  beneficiary: ContractPdfParty;
  /** 0.01 to 100 */
  percentage: number;
  /** YYYY-MM-DD */
  activeFrom: string;
  note: string | null;
  generatedAt: Date;
}

export interface ContractWords {
  title: string;
  number: (id: number) => string;
  draft: string;
  intro: (provider: string) => string;
  payer: string;
  beneficiary: string;
  customerNumber: (id: number) => string;
  signer: (name: string) => string;
  share: (percentage: string) => string;
  activeFrom: (date: string) => string;
  payerObligations: string;
  beneficiaryObligations: string;
  note: string;
  termination: (days: number) => string;
  signing: (days: number) => string;
  signatures: string;
  signatureOf: (side: string) => string;
}

const en: ContractWords = {
  title: 'Revenue-split agreement',
  number: (id) => `Agreement no. ${id}`,
  draft: 'Draft for review: not signed, not in force',
  intro: (provider) =>
    `The parties below agree that, while this agreement is in force, ${provider} moves the share stated below of every payment credited to the payer's accounts with ${provider} to the beneficiary's account in the same currency, at the moment the payment is booked. The share is rounded to the nearest minor unit (half to even); the remainder stays with the payer.`,
  payer: 'Payer',
  beneficiary: 'Beneficiary',
  customerNumber: (id) => `Customer number ${id}`,
  signer: (name) => `Signed for by ${name}`,
  share: (p) => `Share of each payment: ${p} %`,
  activeFrom: (d) => `In force from ${d} (UTC), once both parties have signed`,
  payerObligations: 'Obligations of the payer',
  beneficiaryObligations: 'Obligations of the beneficiary',
  note: 'Note',
  termination: (days) =>
    `Either party may ask to end this agreement; it then ends ${days} days later, unless the beneficiary ends it at once or the parties agree to end it sooner.`,
  signing: (days) => `An agreement not signed by both parties within ${days} days of its creation lapses.`,
  signatures: 'Signatures',
  signatureOf: (side) => `For the ${side.toLowerCase()}`,
};

const es: ContractWords = {
  title: 'Acuerdo de reparto de ingresos',
  number: (id) => `Acuerdo n.º ${id}`,
  draft: 'Borrador para revisión: sin firmar, no vigente',
  intro: (provider) =>
    `Las partes abajo indicadas acuerdan que, mientras este acuerdo esté vigente, ${provider} transfiere la parte indicada abajo de cada pago abonado en las cuentas del pagador en ${provider} a la cuenta del beneficiario en la misma moneda, en el momento en que se contabiliza el pago. La parte se redondea a la unidad menor más cercana (la mitad, al par); el resto queda en poder del pagador.`,
  payer: 'Pagador',
  beneficiary: 'Beneficiario',
  customerNumber: (id) => `Número de cliente ${id}`,
  signer: (name) => `Firma en su nombre ${name}`,
  share: (p) => `Parte de cada pago: ${p} %`,
  activeFrom: (d) => `Vigente desde el ${d} (UTC), una vez firmado por ambas partes`,
  payerObligations: 'Obligaciones del pagador',
  beneficiaryObligations: 'Obligaciones del beneficiario',
  note: 'Nota',
  termination: (days) =>
    `Cualquiera de las partes puede solicitar la terminación de este acuerdo; este termina ${days} días después, salvo que el beneficiario lo termine de inmediato o las partes acuerden terminarlo antes.`,
  signing: (days) => `Un acuerdo que no hayan firmado ambas partes en los ${days} días siguientes a su creación caduca.`,
  signatures: 'Firmas',
  signatureOf: (side) => `Por el ${side.toLowerCase()}`,
};

const pt: ContractWords = {
  title: 'Acordo de partilha de receitas',
  number: (id) => `Acordo n.º ${id}`,
  draft: 'Rascunho para revisão: não assinado, não vigente',
  intro: (provider) =>
    `As partes abaixo acordam que, enquanto este acordo estiver em vigor, a ${provider} transfere a parte indicada abaixo de cada pagamento creditado nas contas do pagador na ${provider} para a conta do beneficiário na mesma moeda, no momento em que o pagamento é registado. A parte é arredondada à unidade mínima mais próxima (metade para o par); o restante fica com o pagador.`,
  payer: 'Pagador',
  beneficiary: 'Beneficiário',
  customerNumber: (id) => `Número de cliente ${id}`,
  signer: (name) => `Assina em seu nome ${name}`,
  share: (p) => `Parte de cada pagamento: ${p} %`,
  activeFrom: (d) => `Em vigor a partir de ${d} (UTC), depois de assinado por ambas as partes`,
  payerObligations: 'Obrigações do pagador',
  beneficiaryObligations: 'Obrigações do beneficiário',
  note: 'Nota',
  termination: (days) =>
    `Qualquer das partes pode pedir a cessação deste acordo; este termina ${days} dias depois, salvo se o beneficiário o terminar de imediato ou as partes acordarem terminá-lo mais cedo.`,
  signing: (days) => `Um acordo que não seja assinado por ambas as partes nos ${days} dias seguintes à sua criação caduca.`,
  signatures: 'Assinaturas',
  signatureOf: (side) => `Pelo ${side.toLowerCase()}`,
};

const ro: ContractWords = {
  title: 'Acord de împărțire a veniturilor',
  number: (id) => `Acordul nr. ${id}`,
  draft: 'Proiect spre examinare: nesemnat, nu este în vigoare',
  intro: (provider) =>
    `Părțile de mai jos convin ca, pe durata acestui acord, ${provider} să transfere cota indicată mai jos din fiecare plată creditată în conturile plătitorului la ${provider} în contul beneficiarului în aceeași monedă, în momentul înregistrării plății. Cota se rotunjește la cea mai apropiată subunitate (jumătatea la număr par); restul rămâne plătitorului.`,
  payer: 'Plătitor',
  beneficiary: 'Beneficiar',
  customerNumber: (id) => `Număr de client ${id}`,
  signer: (name) => `Semnează în numele său ${name}`,
  share: (p) => `Cota din fiecare plată: ${p} %`,
  activeFrom: (d) => `În vigoare de la ${d} (UTC), după semnarea de către ambele părți`,
  payerObligations: 'Obligațiile plătitorului',
  beneficiaryObligations: 'Obligațiile beneficiarului',
  note: 'Notă',
  termination: (days) =>
    `Oricare parte poate cere încetarea acestui acord; acesta încetează după ${days} de zile, cu excepția cazului în care beneficiarul îl încetează imediat sau părțile convin să îl înceteze mai devreme.`,
  signing: (days) => `Un acord nesemnat de ambele părți în ${days} de zile de la creare expiră.`,
  signatures: 'Semnături',
  signatureOf: (side) => `Pentru ${side.toLowerCase()}`,
};

const ru: ContractWords = {
  title: 'Соглашение о распределении дохода',
  number: (id) => `Соглашение № ${id}`,
  draft: 'Проект для ознакомления: не подписан, не действует',
  intro: (provider) =>
    `Стороны, указанные ниже, договорились, что пока настоящее соглашение действует, ${provider} перечисляет указанную ниже долю каждого платежа, зачисленного на счета плательщика в ${provider}, на счёт получателя в той же валюте в момент проведения платежа. Доля округляется до ближайшей минимальной единицы (половина — до чётного); остаток остаётся у плательщика.`,
  payer: 'Плательщик',
  beneficiary: 'Получатель',
  customerNumber: (id) => `Номер клиента ${id}`,
  signer: (name) => `Подписывает: ${name}`,
  share: (p) => `Доля каждого платежа: ${p} %`,
  activeFrom: (d) => `Действует с ${d} (UTC) после подписания обеими сторонами`,
  payerObligations: 'Обязательства плательщика',
  beneficiaryObligations: 'Обязательства получателя',
  note: 'Примечание',
  termination: (days) =>
    `Любая сторона может запросить расторжение настоящего соглашения; оно прекращается через ${days} дней, если получатель не расторгнет его немедленно или стороны не договорятся прекратить его раньше.`,
  signing: (days) => `Соглашение, не подписанное обеими сторонами в течение ${days} дней с момента создания, утрачивает силу.`,
  signatures: 'Подписи',
  signatureOf: (side) => `${side}`,
};

const uk: ContractWords = {
  title: 'Угода про розподіл доходу',
  number: (id) => `Угода № ${id}`,
  draft: 'Проєкт для ознайомлення: не підписаний, не діє',
  intro: (provider) =>
    `Сторони, зазначені нижче, домовилися, що поки ця угода діє, ${provider} переказує зазначену нижче частку кожного платежу, зарахованого на рахунки платника в ${provider}, на рахунок отримувача в тій самій валюті в момент проведення платежу. Частка округлюється до найближчої мінімальної одиниці (половина — до парного); залишок лишається у платника.`,
  payer: 'Платник',
  beneficiary: 'Отримувач',
  customerNumber: (id) => `Номер клієнта ${id}`,
  signer: (name) => `Підписує: ${name}`,
  share: (p) => `Частка кожного платежу: ${p} %`,
  activeFrom: (d) => `Діє з ${d} (UTC) після підписання обома сторонами`,
  payerObligations: "Зобов'язання платника",
  beneficiaryObligations: "Зобов'язання отримувача",
  note: 'Примітка',
  termination: (days) =>
    `Будь-яка сторона може запросити розірвання цієї угоди; вона припиняється через ${days} днів, якщо отримувач не розірве її негайно або сторони не домовляться припинити її раніше.`,
  signing: (days) => `Угода, не підписана обома сторонами протягом ${days} днів від створення, втрачає чинність.`,
  signatures: 'Підписи',
  signatureOf: (side) => `${side}`,
};

export const contractWords: Readonly<Record<DocumentLanguage, ContractWords>> = { en, es, pt, ro, ru, uk };

/** "30", "12.5", "0.01" in the language's decimal separator. */
export function percentText(lang: DocumentLanguage, percentage: number): string {
  return new Intl.NumberFormat(lang, { maximumFractionDigits: 2, useGrouping: false }).format(percentage);
}

export function contractFileName(contractId: number | null): string {
  return contractId === null ? 'revenue-split-draft.pdf' : `revenue-split-contract-${contractId}.pdf`;
}

export interface RenderedContract {
  pdf: Buffer;
  title: string;
  fileName: string;
  /** where each side's signature goes (for the e-signature port) */
  signatureBoxes: Record<'sender' | 'beneficiary', NonNullable<SignatureDocumentInput['signatureBox']>>;
}

const SIZE = 10;
const LINE = 14;
const BOX_HEIGHT = 70;

export async function renderContractPdf(data: ContractPdfData): Promise<RenderedContract> {
  const w = contractWords[data.lang];
  const dw = wordsFor(data.lang);
  const title = data.contractId === null ? w.title : `${w.title}: ${w.number(data.contractId)}`;
  const canvas = new PdfCanvas({ title, author: data.providerName, lang: data.lang, createdAt: data.generatedAt });
  const footer = footerLines(dw, data.lang, activeVariant);
  const bottom = footerTop(footerLineCount(canvas, footer)) - 14;
  const width = CONTENT_RIGHT - PAGE.margin;
  let y = PAGE.margin;
  const room = (height: number) => {
    if (y + height > bottom) {
      canvas.addPage();
      y = PAGE.margin;
    }
  };
  const paragraph = (text: string, font: 'regular' | 'bold' = 'regular', size = SIZE) => {
    const lines = canvas.wrap(text, width, size, font);
    const p = canvas.group('P');
    for (const line of lines) {
      room(LINE);
      canvas.text(PAGE.margin, y, line, { size, font, tag: 'Span', parent: p });
      y += LINE;
    }
    p.end();
    y += 6;
  };

  canvas.text(PAGE.margin, y, data.providerName, { size: 16, font: 'bold', maxWidth: width });
  y += 24;
  canvas.text(PAGE.margin, y, w.title, { size: 13, font: 'bold', tag: 'H1', maxWidth: width });
  y += 20;
  canvas.text(PAGE.margin, y, data.contractId === null ? w.draft : w.number(data.contractId), { size: 11, font: 'bold', maxWidth: width });
  y += 22;
  paragraph(w.intro(data.providerName));

  for (const [label, party] of [
    [w.payer, data.sender],
    [w.beneficiary, data.beneficiary],
  ] as const) {
    room(LINE * 3);
    const block = canvas.group('Sect');
    canvas.text(PAGE.margin, y, `${label}: ${party.name}`, { size: SIZE, font: 'bold', parent: block, maxWidth: width });
    y += LINE;
    canvas.text(PAGE.margin, y, `${w.customerNumber(party.id)} · ${w.signer(party.signerName)}`, { size: SIZE, parent: block, maxWidth: width });
    y += LINE + 6;
    block.end();
  }
  paragraph(w.share(percentText(data.lang, data.percentage)), 'bold');
  paragraph(w.activeFrom(data.activeFrom));

  for (const [label, list] of [
    [w.payerObligations, data.sender.obligations],
    [w.beneficiaryObligations, data.beneficiary.obligations],
  ] as const) {
    room(LINE * 2);
    paragraph(label, 'bold');
    list.forEach((text, i) => paragraph(`${i + 1}. ${text}`));
  }
  if (data.note) {
    room(LINE * 2);
    paragraph(w.note, 'bold');
    paragraph(data.note);
  }
  paragraph(w.termination(TERMINATION_NOTICE_DAYS));
  paragraph(w.signing(SIGNING_DAYS));

  // The signature boxes, side by side on one page.
  room(LINE * 3 + BOX_HEIGHT + 10);
  paragraph(w.signatures, 'bold');
  const half = (width - 20) / 2;
  const boxTop = y + LINE + 4;
  const page = canvas.pageCount - 1;
  const boxes = {} as RenderedContract['signatureBoxes'];
  for (const [i, side, label, party] of [
    [0, 'sender', w.payer, data.sender],
    [1, 'beneficiary', w.beneficiary, data.beneficiary],
  ] as const) {
    const x = PAGE.margin + i * (half + 20);
    const block = canvas.group('Sect');
    canvas.text(x, y, `${w.signatureOf(label)}: ${party.signerName}`, { size: 9, parent: block, maxWidth: half });
    block.end();
    canvas.rule(x, x + half, boxTop + BOX_HEIGHT);
    // pdf-lib's coordinates: from the page's bottom-left
    boxes[side] = { page, x, y: PAGE.height - (boxTop + BOX_HEIGHT), width: half, height: BOX_HEIGHT };
  }
  y = boxTop + BOX_HEIGHT + 10;

  drawFooters(canvas, footer, dw.generated(utcMinute(data.generatedAt)), dw);
  return { pdf: await canvas.finish(), title, fileName: contractFileName(data.contractId), signatureBoxes: boxes };
}
