/**
 * Document categories 1-12 (document 1 §3) with their customer document types, and the address
 * document types per country (dictionaryCustomerAddressDocumentTypes).
 *
 * A type id means the same document wherever it appears (88 is the internal passport in the
 * identity category and in the registration-address category), so rows are keyed
 * `<categoryId>-<typeId>`. Types 4 and 5 need a back file; type 88 (RU, UA only) needs the
 * registration-stamp page besides the front page (document 2 §5).
 */
import { DocumentCategory } from '../../../../api/verification.ts';
import { DictionaryKey, fromTuple, type DictionaryRow, type NameTuple } from './types.ts';

/** Document categories 1-12 (document 1 §3): the contract's ids (api/verification.ts). */
export const DocumentCategoryId = DocumentCategory;

const categories: readonly (readonly [number, NameTuple])[] = [
  [1, ['Identity', 'Identidad', 'Identidade', 'Identitate', 'Удостоверение личности', 'Посвідчення особи']],
  [2, ['Address', 'Dirección', 'Morada', 'Adresă', 'Адрес', 'Адреса']],
  [3, ['Phone', 'Teléfono', 'Telefone', 'Telefon', 'Телефон', 'Телефон']],
  [4, ['Business registration', 'Registro de la empresa', 'Registo da empresa', 'Înregistrarea companiei', 'Регистрация компании', 'Реєстрація компанії']],
  [5, ['Other', 'Otros', 'Outros', 'Altele', 'Другое', 'Інше']],
  [6, ['Relationship to the company', 'Relación con la empresa', 'Relação com a empresa', 'Relația cu compania', 'Связь с компанией', 'Звʼязок із компанією']],
  [7, ['Business address', 'Dirección de la empresa', 'Morada da empresa', 'Adresa companiei', 'Адрес компании', 'Адреса компанії']],
  [8, ['Registration address', 'Dirección de empadronamiento', 'Morada de registo', 'Adresa de domiciliu', 'Адрес регистрации', 'Адреса реєстрації']],
  [9, ['Control and ownership', 'Control y titularidad', 'Controlo e titularidade', 'Control și proprietate', 'Контроль и владение', 'Контроль і володіння']],
  [10, ['Additional business documents', 'Documentos adicionales de la empresa', 'Documentos adicionais da empresa', 'Documente suplimentare ale companiei', 'Дополнительные документы компании', 'Додаткові документи компанії']],
  [11, ['Source of wealth', 'Origen del patrimonio', 'Origem do património', 'Sursa averii', 'Источник состояния', 'Джерело статків']],
  [12, ['Residence permit', 'Permiso de residencia', 'Autorização de residência', 'Permis de ședere', 'Вид на жительство', 'Посвідка на проживання']],
];

type SecondPage = 'back' | 'registrationStamp';
interface DocumentTypeSeed {
  id: number;
  names: NameTuple;
  secondPage?: SecondPage;
  /** only offered to residents / citizens of these countries; absent = every country */
  countryCodes?: readonly string[];
}

const t = (id: number, tuple: NameTuple, extra: Omit<DocumentTypeSeed, 'id' | 'names'> = {}): DocumentTypeSeed => ({
  id,
  names: tuple,
  ...extra,
});

export const documentTypes = {
  passport: t(1, ['Passport', 'Pasaporte', 'Passaporte', 'Pașaport', 'Паспорт', 'Паспорт']),
  nationalIdCard: t(4, ['National ID card', 'Documento nacional de identidad', 'Cartão de cidadão', 'Carte de identitate', 'Национальное удостоверение личности', 'ID-картка'], { secondPage: 'back' }),
  drivingLicence: t(5, ['Driving licence', 'Permiso de conducir', 'Carta de condução', 'Permis de conducere', 'Водительское удостоверение', 'Посвідчення водія'], { secondPage: 'back' }),
  internalPassport: t(
    88,
    [
      'Internal passport with registration stamp',
      'Pasaporte interno con sello de registro',
      'Passaporte interno com carimbo de registo',
      'Pașaport intern cu ștampila de domiciliu',
      'Внутренний паспорт со штампом о регистрации',
      'Внутрішній паспорт зі штампом про реєстрацію',
    ],
    { secondPage: 'registrationStamp', countryCodes: ['RU', 'UA'] },
  ),
  utilityBill: t(10, ['Utility bill', 'Factura de suministros', 'Fatura de serviços públicos', 'Factură de utilități', 'Счёт за коммунальные услуги', 'Рахунок за комунальні послуги']),
  bankStatement: t(11, ['Bank statement', 'Extracto bancario', 'Extrato bancário', 'Extras de cont bancar', 'Банковская выписка', 'Банківська виписка']),
  taxLetter: t(12, ['Tax authority letter', 'Carta de la agencia tributaria', 'Carta da autoridade tributária', 'Scrisoare de la autoritatea fiscală', 'Письмо налоговой службы', 'Лист податкової служби']),
  tenancyAgreement: t(13, ['Tenancy agreement', 'Contrato de alquiler', 'Contrato de arrendamento', 'Contract de închiriere', 'Договор аренды жилья', 'Договір оренди житла']),
  governmentLetter: t(14, ['Government-issued letter', 'Carta de un organismo público', 'Carta de um organismo público', 'Scrisoare de la o instituție publică', 'Письмо государственного органа', 'Лист державного органу']),
  cardStatement: t(15, ['Credit card statement', 'Extracto de tarjeta de crédito', 'Extrato do cartão de crédito', 'Extras de card de credit', 'Выписка по кредитной карте', 'Виписка за кредитною карткою']),
  empadronamiento: t(16, ['Certificate of municipal registration (empadronamiento)', 'Certificado de empadronamiento', 'Certificado de empadronamiento (registo municipal)', 'Certificat de înregistrare municipală (empadronamiento)', 'Справка о муниципальной регистрации (empadronamiento)', 'Довідка про муніципальну реєстрацію (empadronamiento)'], { countryCodes: ['ES'] }),
  atestadoResidencia: t(17, ['Certificate of residence (atestado de residência)', 'Certificado de residencia (atestado de residência)', 'Atestado de residência', 'Certificat de rezidență (atestado de residência)', 'Справка о месте жительства (atestado de residência)', 'Довідка про місце проживання (atestado de residência)'], { countryCodes: ['PT'] }),
  meldebescheinigung: t(18, ['Registration certificate (Meldebescheinigung)', 'Certificado de registro de domicilio (Meldebescheinigung)', 'Certificado de registo (Meldebescheinigung)', 'Certificat de înregistrare (Meldebescheinigung)', 'Справка о регистрации (Meldebescheinigung)', 'Довідка про реєстрацію (Meldebescheinigung)'], { countryCodes: ['DE', 'AT'] }),
  addressRegistration: t(19, ['Certificate of address registration', 'Certificado de registro de domicilio', 'Certificado de registo de morada', 'Certificat de înregistrare a domiciliului', 'Свидетельство о регистрации по месту жительства', 'Довідка про реєстрацію місця проживання']),
  phoneBill: t(20, ['Mobile phone bill', 'Factura de teléfono móvil', 'Fatura de telemóvel', 'Factură de telefonie mobilă', 'Счёт за мобильную связь', 'Рахунок за мобільний звʼязок']),
  phoneContract: t(21, ['Phone contract', 'Contrato de telefonía', 'Contrato de telefone', 'Contract de telefonie', 'Договор с оператором связи', 'Договір з оператором звʼязку']),
  incorporationCertificate: t(30, ['Certificate of incorporation', 'Escritura de constitución', 'Certidão de constituição', 'Certificat de înregistrare a societății', 'Свидетельство о регистрации компании', 'Свідоцтво про реєстрацію компанії']),
  articlesOfAssociation: t(31, ['Memorandum and articles of association', 'Estatutos sociales', 'Pacto social / estatutos', 'Act constitutiv / statut', 'Устав и учредительный договор', 'Статут і засновницький договір']),
  registerExtract: t(32, ['Extract from the commercial register', 'Nota simple del Registro Mercantil', 'Certidão permanente do registo comercial', 'Extras de la Registrul Comerțului', 'Выписка из торгового реестра', 'Витяг з торговельного реєстру']),
  registerOfDirectors: t(33, ['Register of directors', 'Registro de administradores', 'Registo de gerentes / administradores', 'Registrul administratorilor', 'Реестр директоров', 'Реєстр директорів']),
  registerOfShareholders: t(34, ['Register of shareholders', 'Libro registro de socios', 'Registo de sócios / acionistas', 'Registrul asociaților / acționarilor', 'Реестр акционеров', 'Реєстр акціонерів']),
  goodStanding: t(35, ['Certificate of good standing', 'Certificado de vigencia', 'Certidão de situação regular', 'Certificat constatator', 'Справка о действующем статусе компании', 'Довідка про чинний статус компанії']),
  otherDocument: t(40, ['Other document', 'Otro documento', 'Outro documento', 'Alt document', 'Другой документ', 'Інший документ']),
  powerOfAttorney: t(41, ['Power of attorney', 'Poder notarial', 'Procuração', 'Procură', 'Доверенность', 'Довіреність']),
  boardResolution: t(42, ['Board resolution', 'Acuerdo del órgano de administración', 'Deliberação do conselho de administração', 'Hotărârea consiliului de administrație', 'Решение совета директоров', 'Рішення ради директорів']),
  employmentLetter: t(43, ['Employment contract or letter', 'Contrato o carta de empleo', 'Contrato ou declaração de trabalho', 'Contract sau adeverință de muncă', 'Трудовой договор или справка с работы', 'Трудовий договір або довідка з роботи']),
  businessUtilityBill: t(50, ['Business utility bill', 'Factura de suministros de la empresa', 'Fatura de serviços da empresa', 'Factură de utilități a companiei', 'Счёт за коммунальные услуги компании', 'Рахунок за комунальні послуги компанії']),
  businessBankStatement: t(51, ['Business bank statement', 'Extracto bancario de la empresa', 'Extrato bancário da empresa', 'Extras de cont al companiei', 'Банковская выписка компании', 'Банківська виписка компанії']),
  businessLease: t(52, ['Lease agreement for business premises', 'Contrato de arrendamiento del local', 'Contrato de arrendamento das instalações', 'Contract de închiriere a spațiului comercial', 'Договор аренды помещения', 'Договір оренди приміщення']),
  ownershipChart: t(60, ['Ownership structure chart', 'Organigrama de titularidad', 'Organograma da estrutura de titularidade', 'Organigrama structurii de proprietate', 'Схема структуры собственности', 'Схема структури власності']),
  shareholdersAgreement: t(61, ["Shareholders' agreement", 'Pacto de socios', 'Acordo parassocial', 'Acordul acționarilor', 'Соглашение акционеров', 'Угода акціонерів']),
  trustDeed: t(62, ['Trust deed', 'Escritura de fideicomiso', 'Escritura de trust', 'Act de constituire a trustului', 'Договор доверительного управления (траст)', 'Договір довірчого управління (траст)']),
  financialStatements: t(70, ['Financial statements', 'Estados financieros', 'Demonstrações financeiras', 'Situații financiare', 'Финансовая отчётность', 'Фінансова звітність']),
  amlPolicy: t(71, ['AML / KYC policy', 'Política de PBC / KYC', 'Política de BCFT / KYC', 'Politica AML / KYC', 'Политика ПОД/ФТ и KYC', 'Політика ПВК/ФТ і KYC']),
  regulatedLicence: t(72, ['Licence for a regulated activity', 'Licencia de actividad regulada', 'Licença de atividade regulada', 'Licență pentru activitate reglementată', 'Лицензия на регулируемую деятельность', 'Ліцензія на регульовану діяльність']),
  websiteOwnership: t(73, ['Proof of website ownership', 'Prueba de titularidad del sitio web', 'Prova de titularidade do site', 'Dovada deținerii site-ului', 'Подтверждение владения сайтом', 'Підтвердження володіння сайтом']),
  payslip: t(80, ['Payslip', 'Nómina', 'Recibo de vencimento', 'Fluturaș de salariu', 'Расчётный лист', 'Розрахунковий лист']),
  taxReturn: t(81, ['Tax return', 'Declaración de la renta', 'Declaração de IRS', 'Declarație fiscală', 'Налоговая декларация', 'Податкова декларація']),
  propertySale: t(82, ['Property sale contract', 'Contrato de compraventa de inmueble', 'Contrato de compra e venda de imóvel', 'Contract de vânzare a unei proprietăți', 'Договор купли-продажи недвижимости', 'Договір купівлі-продажу нерухомості']),
  inheritance: t(83, ['Inheritance documents', 'Documentos de herencia', 'Documentos de herança', 'Documente de moștenire', 'Документы о наследстве', 'Документи про спадщину']),
  investmentStatement: t(84, ['Investment account statement', 'Extracto de cuenta de inversión', 'Extrato de conta de investimento', 'Extras de cont de investiții', 'Выписка по инвестиционному счёту', 'Виписка з інвестиційного рахунку']),
  loanAgreement: t(85, ['Loan agreement', 'Contrato de préstamo', 'Contrato de empréstimo', 'Contract de împrumut', 'Кредитный договор', 'Кредитний договір']),
  dividendStatement: t(86, ['Dividend statement', 'Certificado de dividendos', 'Declaração de dividendos', 'Extras privind dividendele', 'Справка о дивидендах', 'Довідка про дивіденди']),
  residencePermit: t(90, ['Residence permit', 'Permiso de residencia', 'Autorização de residência', 'Permis de ședere', 'Вид на жительство', 'Посвідка на проживання']),
  longStayVisa: t(91, ['Long-stay visa', 'Visado de larga duración', 'Visto de longa duração', 'Viză de lungă ședere', 'Долгосрочная виза', 'Довгострокова віза']),
  refugeeTravelDocument: t(92, ['Refugee travel document', 'Documento de viaje de refugiado', 'Título de viagem para refugiados', 'Document de călătorie pentru refugiați', 'Проездной документ беженца', 'Проїзний документ біженця']),
  // The tax self-certification's documents (api/tax-certification.ts TAX_DOCUMENT_TYPES, category 5):
  // the forms are signed online (server/modules/tax) and only named here; the CLN is uploaded.
  w9Form: t(100, [
    'Form W-9 (US taxpayer certification)',
    'Formulario W-9 (certificación de contribuyente de EE. UU.)',
    'Formulário W-9 (certificação de contribuinte dos EUA)',
    'Formularul W-9 (certificare de contribuabil din SUA)',
    'Форма W-9 (подтверждение статуса налогоплательщика США)',
    'Форма W-9 (підтвердження статусу платника податків США)',
  ]),
  w8BenForm: t(101, [
    'Form W-8BEN (foreign status of an individual)',
    'Formulario W-8BEN (estatus extranjero de una persona física)',
    'Formulário W-8BEN (estatuto estrangeiro de pessoa singular)',
    'Formularul W-8BEN (statut de persoană fizică străină)',
    'Форма W-8BEN (иностранный статус физического лица)',
    'Форма W-8BEN (іноземний статус фізичної особи)',
  ]),
  w8BenEForm: t(102, [
    'Form W-8BEN-E (foreign status of an entity)',
    'Formulario W-8BEN-E (estatus extranjero de una entidad)',
    'Formulário W-8BEN-E (estatuto estrangeiro de entidade)',
    'Formularul W-8BEN-E (statut de entitate străină)',
    'Форма W-8BEN-E (иностранный статус организации)',
    'Форма W-8BEN-E (іноземний статус організації)',
  ]),
  taxResidencySelfCertification: t(103, [
    'Tax residency self-certification (CRS)',
    'Autocertificación de residencia fiscal (CRS)',
    'Autocertificação de residência fiscal (CRS)',
    'Autocertificare privind rezidența fiscală (CRS)',
    'Самосертификация налогового резидентства (CRS)',
    'Самосертифікація податкового резидентства (CRS)',
  ]),
  certificateOfLossOfNationality: t(104, [
    'Certificate of loss of US nationality',
    'Certificado de pérdida de la nacionalidad estadounidense',
    'Certificado de perda da nacionalidade norte-americana',
    'Certificat de pierdere a cetățeniei SUA',
    'Свидетельство об утрате гражданства США',
    'Свідоцтво про втрату громадянства США',
  ]),
} as const satisfies Record<string, DocumentTypeSeed>;

const d = documentTypes;

/**
 * Types of category 5 that are named (documents lists, the administrator's queue) but not offered
 * for upload: the tax forms signed online. Their rows have no category (parentKey null), so the
 * category list leaves them out, and the upload refuses them (documents.service.ts SIGNED_ONLY_TYPE_IDS).
 */
const signedOnlyTypes: readonly DocumentTypeSeed[] = [d.w9Form, d.w8BenForm, d.w8BenEForm, d.taxResidencySelfCertification];

/** dictionaryDocumentTypes: every category with the types customers upload in it. */
const typesByCategory: Readonly<Record<number, readonly DocumentTypeSeed[]>> = {
  1: [d.passport, d.nationalIdCard, d.drivingLicence, d.internalPassport],
  2: [d.utilityBill, d.bankStatement, d.taxLetter, d.tenancyAgreement, d.governmentLetter, d.cardStatement, d.empadronamiento, d.atestadoResidencia, d.meldebescheinigung, d.internalPassport],
  3: [d.phoneBill, d.phoneContract],
  4: [d.incorporationCertificate, d.articlesOfAssociation, d.registerExtract, d.registerOfDirectors, d.registerOfShareholders, d.goodStanding],
  5: [d.otherDocument, d.certificateOfLossOfNationality],
  6: [d.powerOfAttorney, d.boardResolution, d.employmentLetter],
  7: [d.businessUtilityBill, d.businessBankStatement, d.businessLease, d.taxLetter],
  8: [d.addressRegistration, d.governmentLetter, d.meldebescheinigung, d.empadronamiento, d.internalPassport],
  9: [d.ownershipChart, d.shareholdersAgreement, d.trustDeed],
  10: [d.financialStatements, d.amlPolicy, d.regulatedLicence, d.websiteOwnership],
  11: [d.payslip, d.taxReturn, d.propertySale, d.inheritance, d.investmentStatement, d.loanAgreement, d.dividendStatement],
  12: [d.residencePermit, d.longStayVisa, d.refugeeTravelDocument],
};

/**
 * dictionaryCustomerAddressDocumentTypes: the proofs of a person's address (category 2) and of
 * their registration address (category 8). Types with countryCodes are offered only there; the
 * rest form the default set for every country.
 */
const addressCategories = [DocumentCategoryId.address, DocumentCategoryId.registrationAddress] as const;

function typeData(type: DocumentTypeSeed): Record<string, unknown> {
  return {
    id: type.id,
    needsBack: type.secondPage === 'back',
    secondPage: type.secondPage ?? null,
    countryCodes: type.countryCodes ?? null,
  };
}

export function documentRows(): DictionaryRow[] {
  const rows: DictionaryRow[] = categories.map(([id, tuple]) => ({
    dictionary: DictionaryKey.documentCategories,
    itemKey: String(id),
    sortOrder: id * 10,
    parentKey: null,
    data: {},
    names: fromTuple(tuple),
  }));
  for (const [categoryId, types] of Object.entries(typesByCategory)) {
    types.forEach((type, index) => {
      rows.push({
        dictionary: DictionaryKey.documentTypes,
        itemKey: `${categoryId}-${type.id}`,
        sortOrder: (index + 1) * 10,
        parentKey: categoryId,
        data: typeData(type),
        names: fromTuple(type.names),
      });
    });
  }
  signedOnlyTypes.forEach((type, index) => {
    rows.push({
      dictionary: DictionaryKey.documentTypes,
      itemKey: `${DocumentCategoryId.other}-${type.id}`,
      sortOrder: (index + 1) * 10,
      parentKey: null,
      data: { ...typeData(type), signedOnline: true },
      names: fromTuple(type.names),
    });
  });
  for (const categoryId of addressCategories) {
    (typesByCategory[categoryId] ?? []).forEach((type, index) => {
      rows.push({
        dictionary: DictionaryKey.addressDocumentTypes,
        itemKey: `${categoryId}-${type.id}`,
        sortOrder: (index + 1) * 10,
        parentKey: String(categoryId),
        data: typeData(type),
        names: fromTuple(type.names),
      });
    });
  }
  return rows;
}
