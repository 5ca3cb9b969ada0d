/**
 * The words of the tax residency self-certification (CRS) in the six UI languages. The server has
 * no message catalog (Lingui runs in the web app): a typed dictionary per language, like
 * history/document-words.ts, so the compiler makes sure no language misses a word. The wording
 * follows the OECD's model self-certification forms (individuals, entities, controlling persons),
 * shortened where the model explains terms at length; the reason codes A, B and C are the model's.
 */
import type { GiinMissingReason } from '../../../../api/tax-certification.ts';
import type { FormLanguage } from './common.ts';

export interface CrsWords {
  part: string;
  titleIndividual: string;
  titleEntity: string;
  subtitle: string;
  intro: (provider: string) => string;
  partIdentIndividual: string;
  partIdentEntity: string;
  partResidence: string;
  partEntityType: string;
  partControlling: string;
  partDeclaration: string;
  name: string;
  residenceAddress: string;
  dateOfBirth: string;
  placeOfBirth: string;
  legalName: string;
  countryOfIncorporation: string;
  registrationNumber: string;
  registeredAddress: string;
  placeOfBusiness: string;
  country: string;
  tin: string;
  noTinReason: string;
  reasons: { A: string; B: string; C: string };
  financialInstitution: string;
  giin: string;
  giinMissing: Record<GiinMissingReason, string>;
  activeListed: string;
  activeRelated: string;
  activeOther: string;
  passive: string;
  market: string;
  ticker: string;
  listedCompany: string;
  controllingIntro: string;
  declarationIndividual: (provider: string) => string;
  declarationEntity: (provider: string) => string;
  signature: string;
  signatureCaption: string;
  signerName: string;
  capacity: string;
  page: (i: number, n: number) => string;
}

const en: CrsWords = {
  part: 'Part',
  titleIndividual: 'Tax residency self-certification: individual',
  titleEntity: 'Tax residency self-certification: entity',
  subtitle: 'Common Reporting Standard (CRS), OECD model',
  intro: (p) =>
    `Given to ${p}. Under the Common Reporting Standard, financial institutions must identify the countries where their account holders are resident for tax purposes, and may report the account to the tax authorities, who exchange the information with the countries of tax residence.`,
  partIdentIndividual: 'Identification of the account holder',
  partIdentEntity: 'Identification of the entity',
  partResidence: 'Countries of residence for tax purposes and taxpayer identification numbers (TIN)',
  partEntityType: 'Entity type',
  partControlling: 'Controlling persons',
  partDeclaration: 'Declaration and signature',
  name: 'Name',
  residenceAddress: 'Current residence address',
  dateOfBirth: 'Date of birth',
  placeOfBirth: 'Place of birth (town or city, country)',
  legalName: 'Legal name of the entity',
  countryOfIncorporation: 'Country of incorporation or organisation',
  registrationNumber: 'Registration number',
  registeredAddress: 'Registered address',
  placeOfBusiness: 'Principal place of business (if different)',
  country: 'Country of tax residence',
  tin: 'TIN',
  noTinReason: 'No TIN: reason (A, B or C)',
  reasons: {
    A: 'The country where the account holder is resident does not issue TINs to its residents.',
    B: 'The account holder is otherwise unable to obtain a TIN or equivalent number (the explanation is given).',
    C: 'No TIN is required (only where the domestic law of the country does not require the collection of the TIN it issues).',
  },
  financialInstitution: 'Financial institution',
  giin: 'GIIN',
  giinMissing: { APPLIED_FOR: 'applied for', SPONSORED_ENTITY: 'sponsored entity', NOT_REQUIRED: 'not required' },
  activeListed: 'Active NFE: a corporation whose stock is regularly traded on an established securities market',
  activeRelated: 'Active NFE: a related entity of a corporation whose stock is regularly traded on an established securities market',
  activeOther: 'Active NFE other than the above (less than 50% of its gross income is passive income, and less than 50% of its assets produce passive income)',
  passive: 'Passive NFE (an investment entity not managed by a financial institution, or an NFE that is not an active NFE)',
  market: 'Securities market',
  ticker: 'Ticker',
  listedCompany: 'Listed corporation',
  controllingIntro: 'The natural persons who exercise control over the entity (each gives a self-certification of their own):',
  declarationIndividual: (p) =>
    `I declare that all statements made in this declaration are, to the best of my knowledge and belief, correct and complete. I acknowledge that the information contained in this form and information regarding the account holder and any reportable account(s) may be reported to the tax authorities of the country in which the account is maintained and exchanged with the tax authorities of another country or countries in which the account holder may be tax resident, pursuant to intergovernmental agreements to exchange financial account information. I undertake to advise ${p} within 30 days of any change in circumstances which affects the tax residency status of the individual identified in Part 1 of this form or causes the information contained herein to become incorrect or incomplete, and to provide ${p} with a suitably updated self-certification within 90 days of such change in circumstances.`,
  declarationEntity: (p) =>
    `I declare that all statements made in this declaration are, to the best of my knowledge and belief, correct and complete. I acknowledge that the information contained in this form and information regarding the account holder, its controlling persons and any reportable account(s) may be reported to the tax authorities of the country in which the account is maintained and exchanged with the tax authorities of another country or countries in which the account holder or its controlling persons may be tax resident, pursuant to intergovernmental agreements to exchange financial account information. I undertake to advise ${p} within 30 days of any change in circumstances which affects the tax residency status of the entity identified in Part 1 of this form or causes the information contained herein to become incorrect or incomplete, and to provide ${p} with a suitably updated self-certification within 90 days of such change in circumstances. I certify that I am authorised to sign for the account holder in respect of all the account(s) to which this form relates.`,
  signature: 'Signature',
  signatureCaption: 'Signature and date (added when signed)',
  signerName: 'Name of the signer',
  capacity: 'Capacity',
  page: (i, n) => `Page ${i} of ${n}`,
};

const es: CrsWords = {
  part: 'Parte',
  titleIndividual: 'Autocertificación de residencia fiscal: persona física',
  titleEntity: 'Autocertificación de residencia fiscal: entidad',
  subtitle: 'Estándar Común de Comunicación de Información (CRS), modelo de la OCDE',
  intro: (p) =>
    `Entregada a ${p}. Conforme al Estándar Común de Comunicación de Información, las instituciones financieras deben identificar los países en los que sus titulares de cuentas son residentes a efectos fiscales y pueden comunicar la cuenta a las autoridades fiscales, que intercambian la información con los países de residencia fiscal.`,
  partIdentIndividual: 'Identificación del titular de la cuenta',
  partIdentEntity: 'Identificación de la entidad',
  partResidence: 'Países de residencia fiscal y números de identificación fiscal (NIF)',
  partEntityType: 'Tipo de entidad',
  partControlling: 'Personas que ejercen el control',
  partDeclaration: 'Declaración y firma',
  name: 'Nombre y apellidos',
  residenceAddress: 'Domicilio actual',
  dateOfBirth: 'Fecha de nacimiento',
  placeOfBirth: 'Lugar de nacimiento (ciudad, país)',
  legalName: 'Denominación social de la entidad',
  countryOfIncorporation: 'País de constitución u organización',
  registrationNumber: 'Número de registro',
  registeredAddress: 'Domicilio social',
  placeOfBusiness: 'Sede principal de actividad (si es distinta)',
  country: 'País de residencia fiscal',
  tin: 'NIF',
  noTinReason: 'Sin NIF: motivo (A, B o C)',
  reasons: {
    A: 'El país de residencia del titular no expide NIF a sus residentes.',
    B: 'El titular no puede obtener un NIF o número equivalente por otro motivo (se indica la explicación).',
    C: 'No se requiere NIF (solo si la legislación interna del país no exige recabar el NIF que expide).',
  },
  financialInstitution: 'Institución financiera',
  giin: 'GIIN',
  giinMissing: { APPLIED_FOR: 'solicitado', SPONSORED_ENTITY: 'entidad patrocinada', NOT_REQUIRED: 'no requerido' },
  activeListed: 'ENF activa: sociedad cuyas acciones se negocian regularmente en un mercado de valores reconocido',
  activeRelated: 'ENF activa: entidad vinculada a una sociedad cuyas acciones se negocian regularmente en un mercado de valores reconocido',
  activeOther: 'ENF activa distinta de las anteriores (menos del 50 % de sus rentas brutas son rentas pasivas y menos del 50 % de sus activos producen rentas pasivas)',
  passive: 'ENF pasiva (entidad de inversión no gestionada por una institución financiera, o ENF que no es una ENF activa)',
  market: 'Mercado de valores',
  ticker: 'Símbolo bursátil',
  listedCompany: 'Sociedad cotizada',
  controllingIntro: 'Personas físicas que ejercen el control sobre la entidad (cada una presenta su propia autocertificación):',
  declarationIndividual: (p) =>
    `Declaro que, según mi leal saber y entender, todas las manifestaciones de esta declaración son correctas y completas. Reconozco que la información contenida en este formulario y la relativa al titular y a las cuentas sujetas a comunicación puede ser comunicada a las autoridades fiscales del país en el que se mantiene la cuenta e intercambiada con las autoridades fiscales de otro u otros países en los que el titular pueda ser residente fiscal, en virtud de acuerdos intergubernamentales de intercambio de información sobre cuentas financieras. Me comprometo a informar a ${p}, en un plazo de 30 días, de cualquier cambio de circunstancias que afecte a la residencia fiscal de la persona identificada en la parte 1 de este formulario o que haga que su información sea incorrecta o incompleta, y a entregar a ${p} una autocertificación actualizada en un plazo de 90 días desde dicho cambio.`,
  declarationEntity: (p) =>
    `Declaro que, según mi leal saber y entender, todas las manifestaciones de esta declaración son correctas y completas. Reconozco que la información contenida en este formulario y la relativa al titular, a las personas que ejercen su control y a las cuentas sujetas a comunicación puede ser comunicada a las autoridades fiscales del país en el que se mantiene la cuenta e intercambiada con las autoridades fiscales de otro u otros países en los que el titular o las personas que ejercen su control puedan ser residentes fiscales, en virtud de acuerdos intergubernamentales de intercambio de información sobre cuentas financieras. Me comprometo a informar a ${p}, en un plazo de 30 días, de cualquier cambio de circunstancias que afecte a la residencia fiscal de la entidad identificada en la parte 1 de este formulario o que haga que su información sea incorrecta o incompleta, y a entregar a ${p} una autocertificación actualizada en un plazo de 90 días desde dicho cambio. Certifico que estoy autorizado para firmar en nombre del titular respecto de todas las cuentas a las que se refiere este formulario.`,
  signature: 'Firma',
  signatureCaption: 'Firma y fecha (se añaden al firmar)',
  signerName: 'Nombre del firmante',
  capacity: 'Cargo',
  page: (i, n) => `Página ${i} de ${n}`,
};

const pt: CrsWords = {
  part: 'Parte',
  titleIndividual: 'Autocertificação de residência fiscal: pessoa singular',
  titleEntity: 'Autocertificação de residência fiscal: entidade',
  subtitle: 'Norma Comum de Comunicação (CRS), modelo da OCDE',
  intro: (p) =>
    `Entregue a ${p}. Nos termos da Norma Comum de Comunicação, as instituições financeiras têm de identificar os países em que os titulares das suas contas são residentes para efeitos fiscais e podem comunicar a conta às autoridades fiscais, que trocam essa informação com os países de residência fiscal.`,
  partIdentIndividual: 'Identificação do titular da conta',
  partIdentEntity: 'Identificação da entidade',
  partResidence: 'Países de residência fiscal e números de identificação fiscal (NIF)',
  partEntityType: 'Tipo de entidade',
  partControlling: 'Pessoas que exercem o controlo',
  partDeclaration: 'Declaração e assinatura',
  name: 'Nome completo',
  residenceAddress: 'Morada de residência atual',
  dateOfBirth: 'Data de nascimento',
  placeOfBirth: 'Local de nascimento (localidade, país)',
  legalName: 'Denominação social da entidade',
  countryOfIncorporation: 'País de constituição ou organização',
  registrationNumber: 'Número de registo',
  registeredAddress: 'Sede social',
  placeOfBusiness: 'Local principal de atividade (se diferente)',
  country: 'País de residência fiscal',
  tin: 'NIF',
  noTinReason: 'Sem NIF: motivo (A, B ou C)',
  reasons: {
    A: 'O país de residência do titular não atribui NIF aos seus residentes.',
    B: 'O titular não consegue obter um NIF ou número equivalente por outro motivo (a explicação é indicada).',
    C: 'Não é exigido NIF (apenas se a legislação interna do país não exigir a recolha do NIF por ele atribuído).',
  },
  financialInstitution: 'Instituição financeira',
  giin: 'GIIN',
  giinMissing: { APPLIED_FOR: 'pedido', SPONSORED_ENTITY: 'entidade patrocinada', NOT_REQUIRED: 'não exigido' },
  activeListed: 'ENF ativa: sociedade cujas ações são regularmente negociadas num mercado de valores mobiliários reconhecido',
  activeRelated: 'ENF ativa: entidade relacionada com uma sociedade cujas ações são regularmente negociadas num mercado de valores mobiliários reconhecido',
  activeOther: 'ENF ativa diferente das anteriores (menos de 50 % do seu rendimento bruto é rendimento passivo e menos de 50 % dos seus ativos produzem rendimento passivo)',
  passive: 'ENF passiva (entidade de investimento não gerida por uma instituição financeira, ou ENF que não é uma ENF ativa)',
  market: 'Mercado de valores mobiliários',
  ticker: 'Código de negociação',
  listedCompany: 'Sociedade cotada',
  controllingIntro: 'Pessoas singulares que exercem o controlo sobre a entidade (cada uma entrega a sua própria autocertificação):',
  declarationIndividual: (p) =>
    `Declaro que, tanto quanto é do meu conhecimento, todas as informações prestadas nesta declaração são corretas e completas. Tomo conhecimento de que as informações constantes deste formulário e as relativas ao titular e às contas sujeitas a comunicação podem ser comunicadas às autoridades fiscais do país em que a conta é mantida e trocadas com as autoridades fiscais de outro ou outros países em que o titular possa ser residente para efeitos fiscais, ao abrigo de acordos intergovernamentais de troca de informações sobre contas financeiras. Comprometo-me a informar ${p}, no prazo de 30 dias, de qualquer alteração de circunstâncias que afete a residência fiscal da pessoa identificada na parte 1 deste formulário ou que torne as suas informações incorretas ou incompletas, e a entregar a ${p} uma autocertificação atualizada no prazo de 90 dias após essa alteração.`,
  declarationEntity: (p) =>
    `Declaro que, tanto quanto é do meu conhecimento, todas as informações prestadas nesta declaração são corretas e completas. Tomo conhecimento de que as informações constantes deste formulário e as relativas ao titular, às pessoas que exercem o seu controlo e às contas sujeitas a comunicação podem ser comunicadas às autoridades fiscais do país em que a conta é mantida e trocadas com as autoridades fiscais de outro ou outros países em que o titular ou as pessoas que exercem o seu controlo possam ser residentes para efeitos fiscais, ao abrigo de acordos intergovernamentais de troca de informações sobre contas financeiras. Comprometo-me a informar ${p}, no prazo de 30 dias, de qualquer alteração de circunstâncias que afete a residência fiscal da entidade identificada na parte 1 deste formulário ou que torne as suas informações incorretas ou incompletas, e a entregar a ${p} uma autocertificação atualizada no prazo de 90 dias após essa alteração. Certifico que estou autorizado a assinar em nome do titular relativamente a todas as contas a que este formulário se refere.`,
  signature: 'Assinatura',
  signatureCaption: 'Assinatura e data (acrescentadas ao assinar)',
  signerName: 'Nome do signatário',
  capacity: 'Qualidade em que assina',
  page: (i, n) => `Página ${i} de ${n}`,
};

const ro: CrsWords = {
  part: 'Partea',
  titleIndividual: 'Autocertificare privind rezidența fiscală: persoană fizică',
  titleEntity: 'Autocertificare privind rezidența fiscală: entitate',
  subtitle: 'Standardul comun de raportare (CRS), modelul OCDE',
  intro: (p) =>
    `Predată către ${p}. Potrivit Standardului comun de raportare, instituțiile financiare trebuie să identifice țările în care titularii de conturi sunt rezidenți în scopuri fiscale și pot raporta contul autorităților fiscale, care transmit informațiile țărilor de rezidență fiscală.`,
  partIdentIndividual: 'Identificarea titularului de cont',
  partIdentEntity: 'Identificarea entității',
  partResidence: 'Țările de rezidență fiscală și numerele de identificare fiscală (NIF)',
  partEntityType: 'Tipul entității',
  partControlling: 'Persoanele care exercită controlul',
  partDeclaration: 'Declarație și semnătură',
  name: 'Nume și prenume',
  residenceAddress: 'Adresa de reședință actuală',
  dateOfBirth: 'Data nașterii',
  placeOfBirth: 'Locul nașterii (localitate, țară)',
  legalName: 'Denumirea legală a entității',
  countryOfIncorporation: 'Țara de înființare sau organizare',
  registrationNumber: 'Număr de înregistrare',
  registeredAddress: 'Sediul social',
  placeOfBusiness: 'Locul principal de desfășurare a activității (dacă diferă)',
  country: 'Țara de rezidență fiscală',
  tin: 'NIF',
  noTinReason: 'Fără NIF: motiv (A, B sau C)',
  reasons: {
    A: 'Țara de rezidență a titularului nu emite NIF rezidenților săi.',
    B: 'Titularul nu poate obține un NIF sau un număr echivalent din alt motiv (explicația este indicată).',
    C: 'Nu este necesar un NIF (numai dacă legislația internă a țării nu impune colectarea NIF-ului emis de aceasta).',
  },
  financialInstitution: 'Instituție financiară',
  giin: 'GIIN',
  giinMissing: { APPLIED_FOR: 'solicitat', SPONSORED_ENTITY: 'entitate sponsorizată', NOT_REQUIRED: 'nu este necesar' },
  activeListed: 'ENF activă: societate ale cărei acțiuni sunt tranzacționate în mod regulat pe o piață de valori mobiliare recunoscută',
  activeRelated: 'ENF activă: entitate afiliată unei societăți ale cărei acțiuni sunt tranzacționate în mod regulat pe o piață de valori mobiliare recunoscută',
  activeOther: 'ENF activă, alta decât cele de mai sus (mai puțin de 50% din venitul brut este venit pasiv și mai puțin de 50% din active produc venit pasiv)',
  passive: 'ENF pasivă (entitate de investiții care nu este administrată de o instituție financiară sau ENF care nu este ENF activă)',
  market: 'Piața de valori mobiliare',
  ticker: 'Simbol bursier',
  listedCompany: 'Societatea cotată',
  controllingIntro: 'Persoanele fizice care exercită controlul asupra entității (fiecare completează propria autocertificare):',
  declarationIndividual: (p) =>
    `Declar că, după cunoștințele mele, toate informațiile din această declarație sunt corecte și complete. Iau act de faptul că informațiile din acest formular și cele privind titularul și conturile raportabile pot fi raportate autorităților fiscale din țara în care este deținut contul și transmise autorităților fiscale din altă țară sau din alte țări în care titularul poate fi rezident fiscal, în temeiul acordurilor interguvernamentale privind schimbul de informații despre conturile financiare. Mă angajez să informez ${p}, în termen de 30 de zile, despre orice schimbare a circumstanțelor care afectează rezidența fiscală a persoanei identificate în partea 1 a acestui formular sau care face ca informațiile din acesta să devină incorecte ori incomplete și să predau către ${p} o autocertificare actualizată în termen de 90 de zile de la această schimbare.`,
  declarationEntity: (p) =>
    `Declar că, după cunoștințele mele, toate informațiile din această declarație sunt corecte și complete. Iau act de faptul că informațiile din acest formular și cele privind titularul, persoanele care exercită controlul asupra acestuia și conturile raportabile pot fi raportate autorităților fiscale din țara în care este deținut contul și transmise autorităților fiscale din altă țară sau din alte țări în care titularul ori persoanele care exercită controlul asupra acestuia pot fi rezidenți fiscali, în temeiul acordurilor interguvernamentale privind schimbul de informații despre conturile financiare. Mă angajez să informez ${p}, în termen de 30 de zile, despre orice schimbare a circumstanțelor care afectează rezidența fiscală a entității identificate în partea 1 a acestui formular sau care face ca informațiile din acesta să devină incorecte ori incomplete și să predau către ${p} o autocertificare actualizată în termen de 90 de zile de la această schimbare. Certific că sunt autorizat să semnez în numele titularului pentru toate conturile la care se referă acest formular.`,
  signature: 'Semnătura',
  signatureCaption: 'Semnătura și data (adăugate la semnare)',
  signerName: 'Numele semnatarului',
  capacity: 'Calitatea',
  page: (i, n) => `Pagina ${i} din ${n}`,
};

const ru: CrsWords = {
  part: 'Часть',
  titleIndividual: 'Самосертификация налогового резидентства: физическое лицо',
  titleEntity: 'Самосертификация налогового резидентства: организация',
  subtitle: 'Общий стандарт отчётности (CRS), модель ОЭСР',
  intro: (p) =>
    `Получатель формы: ${p}. В соответствии с Общим стандартом отчётности финансовые учреждения обязаны установить страны, налоговыми резидентами которых являются владельцы счетов, и могут сообщать сведения о счёте налоговым органам, которые передают их странам налогового резидентства.`,
  partIdentIndividual: 'Сведения о владельце счёта',
  partIdentEntity: 'Сведения об организации',
  partResidence: 'Страны налогового резидентства и идентификационные номера налогоплательщика (ИНН)',
  partEntityType: 'Тип организации',
  partControlling: 'Контролирующие лица',
  partDeclaration: 'Заявление и подпись',
  name: 'Фамилия, имя',
  residenceAddress: 'Текущий адрес места жительства',
  dateOfBirth: 'Дата рождения',
  placeOfBirth: 'Место рождения (город, страна)',
  legalName: 'Полное наименование организации',
  countryOfIncorporation: 'Страна регистрации (учреждения)',
  registrationNumber: 'Регистрационный номер',
  registeredAddress: 'Юридический адрес',
  placeOfBusiness: 'Основное место деятельности (если отличается)',
  country: 'Страна налогового резидентства',
  tin: 'ИНН',
  noTinReason: 'Нет ИНН: причина (A, B или C)',
  reasons: {
    A: 'Страна резидентства владельца счёта не присваивает ИНН своим резидентам.',
    B: 'Владелец счёта не может получить ИНН или равнозначный номер по иной причине (пояснение приведено).',
    C: 'ИНН не требуется (только если законодательство страны не требует сбора присвоенного ею ИНН).',
  },
  financialInstitution: 'Финансовое учреждение',
  giin: 'GIIN',
  giinMissing: { APPLIED_FOR: 'запрошен', SPONSORED_ENTITY: 'спонсируемая организация', NOT_REQUIRED: 'не требуется' },
  activeListed: 'Активная НФО: компания, акции которой регулярно обращаются на признанном рынке ценных бумаг',
  activeRelated: 'Активная НФО: связанное лицо компании, акции которой регулярно обращаются на признанном рынке ценных бумаг',
  activeOther: 'Иная активная НФО (пассивный доход составляет менее 50 % валового дохода, и менее 50 % активов приносят пассивный доход)',
  passive: 'Пассивная НФО (инвестиционная организация, которой не управляет финансовое учреждение, или НФО, не являющаяся активной)',
  market: 'Рынок ценных бумаг',
  ticker: 'Тикер',
  listedCompany: 'Публичная компания',
  controllingIntro: 'Физические лица, осуществляющие контроль над организацией (каждое заполняет собственную самосертификацию):',
  declarationIndividual: (p) =>
    `Заявляю, что, насколько мне известно, все сведения в настоящем заявлении верны и полны. Я понимаю, что сведения из этой формы, а также сведения о владельце счёта и о счетах, подлежащих отчётности, могут быть переданы налоговым органам страны, в которой ведётся счёт, и переданы в порядке обмена налоговым органам другой страны или стран, налоговым резидентом которых может являться владелец счёта, в соответствии с межправительственными соглашениями об обмене информацией о финансовых счетах. Обязуюсь в течение 30 дней сообщить ${p} о любом изменении обстоятельств, которое влияет на налоговое резидентство лица, указанного в части 1 этой формы, или делает её сведения неверными или неполными, и в течение 90 дней после такого изменения предоставить ${p} обновлённую самосертификацию.`,
  declarationEntity: (p) =>
    `Заявляю, что, насколько мне известно, все сведения в настоящем заявлении верны и полны. Я понимаю, что сведения из этой формы, а также сведения о владельце счёта, его контролирующих лицах и о счетах, подлежащих отчётности, могут быть переданы налоговым органам страны, в которой ведётся счёт, и переданы в порядке обмена налоговым органам другой страны или стран, налоговыми резидентами которых могут являться владелец счёта или его контролирующие лица, в соответствии с межправительственными соглашениями об обмене информацией о финансовых счетах. Обязуюсь в течение 30 дней сообщить ${p} о любом изменении обстоятельств, которое влияет на налоговое резидентство организации, указанной в части 1 этой формы, или делает её сведения неверными или неполными, и в течение 90 дней после такого изменения предоставить ${p} обновлённую самосертификацию. Подтверждаю, что уполномочен(а) подписывать от имени владельца счёта в отношении всех счетов, к которым относится эта форма.`,
  signature: 'Подпись',
  signatureCaption: 'Подпись и дата (добавляются при подписании)',
  signerName: 'Имя подписанта',
  capacity: 'Должность',
  page: (i, n) => `Страница ${i} из ${n}`,
};

const uk: CrsWords = {
  part: 'Частина',
  titleIndividual: 'Самосертифікація податкового резидентства: фізична особа',
  titleEntity: 'Самосертифікація податкового резидентства: організація',
  subtitle: 'Загальний стандарт звітності (CRS), модель ОЕСР',
  intro: (p) =>
    `Отримувач форми: ${p}. Відповідно до Загального стандарту звітності фінансові установи зобов’язані встановити країни, податковими резидентами яких є власники рахунків, і можуть повідомляти відомості про рахунок податковим органам, які передають їх країнам податкового резидентства.`,
  partIdentIndividual: 'Відомості про власника рахунку',
  partIdentEntity: 'Відомості про організацію',
  partResidence: 'Країни податкового резидентства та ідентифікаційні номери платника податків (ІПН)',
  partEntityType: 'Тип організації',
  partControlling: 'Контролюючі особи',
  partDeclaration: 'Заява та підпис',
  name: 'Прізвище, ім’я',
  residenceAddress: 'Поточна адреса проживання',
  dateOfBirth: 'Дата народження',
  placeOfBirth: 'Місце народження (місто, країна)',
  legalName: 'Повне найменування організації',
  countryOfIncorporation: 'Країна реєстрації (заснування)',
  registrationNumber: 'Реєстраційний номер',
  registeredAddress: 'Юридична адреса',
  placeOfBusiness: 'Основне місце діяльності (якщо інше)',
  country: 'Країна податкового резидентства',
  tin: 'ІПН',
  noTinReason: 'Немає ІПН: причина (A, B або C)',
  reasons: {
    A: 'Країна резидентства власника рахунку не присвоює ІПН своїм резидентам.',
    B: 'Власник рахунку не може отримати ІПН або рівнозначний номер з іншої причини (пояснення наведено).',
    C: 'ІПН не вимагається (лише якщо законодавство країни не вимагає збирати присвоєний нею ІПН).',
  },
  financialInstitution: 'Фінансова установа',
  giin: 'GIIN',
  giinMissing: { APPLIED_FOR: 'запитано', SPONSORED_ENTITY: 'спонсорована організація', NOT_REQUIRED: 'не вимагається' },
  activeListed: 'Активна НФО: компанія, акції якої регулярно обертаються на визнаному ринку цінних паперів',
  activeRelated: 'Активна НФО: пов’язана особа компанії, акції якої регулярно обертаються на визнаному ринку цінних паперів',
  activeOther: 'Інша активна НФО (пасивний дохід становить менше 50 % валового доходу, і менше 50 % активів приносять пасивний дохід)',
  passive: 'Пасивна НФО (інвестиційна організація, якою не управляє фінансова установа, або НФО, що не є активною)',
  market: 'Ринок цінних паперів',
  ticker: 'Тікер',
  listedCompany: 'Публічна компанія',
  controllingIntro: 'Фізичні особи, які здійснюють контроль над організацією (кожна заповнює власну самосертифікацію):',
  declarationIndividual: (p) =>
    `Заявляю, що, наскільки мені відомо, усі відомості в цій заяві є правильними та повними. Я розумію, що відомості з цієї форми, а також відомості про власника рахунку та рахунки, що підлягають звітуванню, можуть бути передані податковим органам країни, у якій ведеться рахунок, і передані в порядку обміну податковим органам іншої країни або країн, податковим резидентом яких може бути власник рахунку, відповідно до міжурядових угод про обмін інформацією про фінансові рахунки. Зобов’язуюся протягом 30 днів повідомити ${p} про будь-яку зміну обставин, яка впливає на податкове резидентство особи, зазначеної в частині 1 цієї форми, або робить її відомості неправильними чи неповними, і протягом 90 днів після такої зміни надати ${p} оновлену самосертифікацію.`,
  declarationEntity: (p) =>
    `Заявляю, що, наскільки мені відомо, усі відомості в цій заяві є правильними та повними. Я розумію, що відомості з цієї форми, а також відомості про власника рахунку, його контролюючих осіб і рахунки, що підлягають звітуванню, можуть бути передані податковим органам країни, у якій ведеться рахунок, і передані в порядку обміну податковим органам іншої країни або країн, податковими резидентами яких можуть бути власник рахунку або його контролюючі особи, відповідно до міжурядових угод про обмін інформацією про фінансові рахунки. Зобов’язуюся протягом 30 днів повідомити ${p} про будь-яку зміну обставин, яка впливає на податкове резидентство організації, зазначеної в частині 1 цієї форми, або робить її відомості неправильними чи неповними, і протягом 90 днів після такої зміни надати ${p} оновлену самосертифікацію. Підтверджую, що я уповноважений(-а) підписувати від імені власника рахунку щодо всіх рахунків, яких стосується ця форма.`,
  signature: 'Підпис',
  signatureCaption: 'Підпис і дата (додаються під час підписання)',
  signerName: 'Ім’я підписанта',
  capacity: 'Посада',
  page: (i, n) => `Сторінка ${i} з ${n}`,
};

export const crsWords: Readonly<Record<FormLanguage, CrsWords>> = { en, es, pt, ro, ru, uk };
