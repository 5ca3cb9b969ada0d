/**
 * Additional questions of personal and business registration (document 3 §3).
 *
 * anotherAccount and businessAnotherAccount are yes/no radio questions; when the answer is true
 * they carry a follow-up textarea whose id is the question id plus `Value`. controlAccount is a
 * radio question whose answer 2 carries a name-and-date follow-up. Texts are stored per language:
 * the question in `names`, option labels and the follow-up question inside `data`.
 */
import type { LocalizedNames } from '../dictionaries.tables.ts';
import { DictionaryKey, fromTuple, type DictionaryRow, type NameTuple } from './types.ts';

type AnswerValue = string | number | boolean;
export interface StoredQuestionData {
  [key: string]: unknown;
  type: 'radio' | 'textarea' | 'nameDate';
  options: { value: AnswerValue; labels: LocalizedNames }[] | null;
  followUp: { when: AnswerValue; id: string; type: 'textarea' | 'nameDate'; questions: LocalizedNames } | null;
}

interface QuestionSeed {
  id: string;
  question: NameTuple;
  data: StoredQuestionData;
}

const yes: NameTuple = ['Yes', 'Sí', 'Sim', 'Da', 'Да', 'Так'];
const no: NameTuple = ['No', 'No', 'Não', 'Nu', 'Нет', 'Ні'];
const yesNo = [
  { value: true, labels: fromTuple(yes) },
  { value: false, labels: fromTuple(no) },
];

/** A yes/no radio question whose true answer opens the `<id>Value` textarea. */
function yesNoWithDetails(id: string, question: NameTuple, details: NameTuple): QuestionSeed {
  return {
    id,
    question,
    data: {
      type: 'radio',
      options: yesNo,
      followUp: { when: true, id: `${id}Value`, type: 'textarea', questions: fromTuple(details) },
    },
  };
}

function textarea(id: string, question: NameTuple): QuestionSeed {
  return { id, question, data: { type: 'textarea', options: null, followUp: null } };
}

const personalQuestions: readonly QuestionSeed[] = [
  yesNoWithDetails(
    'anotherAccount',
    [
      'Do you hold an account with another bank or payment institution?',
      '¿Tiene una cuenta en otro banco o entidad de pago?',
      'Tem conta noutro banco ou instituição de pagamento?',
      'Aveți un cont la o altă bancă sau instituție de plată?',
      'Есть ли у вас счёт в другом банке или платёжном учреждении?',
      'Чи маєте ви рахунок в іншому банку або платіжній установі?',
    ],
    [
      'Name the bank or institution and its country',
      'Indique el banco o la entidad y su país',
      'Indique o banco ou a instituição e o respetivo país',
      'Indicați banca sau instituția și țara acesteia',
      'Укажите банк или учреждение и страну',
      'Вкажіть банк або установу та країну',
    ],
  ),
  yesNoWithDetails(
    'politicallyExposed',
    [
      'Are you, or is a close family member or associate of yours, a politically exposed person?',
      '¿Es usted, o algún familiar cercano o socio, una persona con responsabilidad pública?',
      'É, ou algum familiar próximo ou associado seu é, uma pessoa politicamente exposta?',
      'Sunteți dumneavoastră, un membru apropiat al familiei sau un asociat o persoană expusă public?',
      'Являетесь ли вы, ваш близкий родственник или партнёр публичным должностным лицом?',
      'Чи є ви, ваш близький родич або партнер політично значущою особою?',
    ],
    [
      'Describe the public position and your relationship to the person',
      'Describa el cargo público y su relación con esa persona',
      'Descreva o cargo público e a sua relação com essa pessoa',
      'Descrieți funcția publică și relația dumneavoastră cu persoana respectivă',
      'Опишите должность и ваше отношение к этому лицу',
      'Опишіть посаду та ваш звʼязок із цією особою',
    ],
  ),
  textarea('expectedActivity', [
    'Describe the payments you expect to send and receive',
    'Describa los pagos que prevé enviar y recibir',
    'Descreva os pagamentos que prevê enviar e receber',
    'Descrieți plățile pe care estimați că le veți trimite și primi',
    'Опишите платежи, которые вы планируете отправлять и получать',
    'Опишіть платежі, які ви плануєте надсилати й отримувати',
  ]),
];

const businessQuestions: readonly QuestionSeed[] = [
  yesNoWithDetails(
    'businessAnotherAccount',
    [
      'Does the company hold an account with another bank or payment institution?',
      '¿Tiene la empresa una cuenta en otro banco o entidad de pago?',
      'A empresa tem conta noutro banco ou instituição de pagamento?',
      'Are compania un cont la o altă bancă sau instituție de plată?',
      'Есть ли у компании счёт в другом банке или платёжном учреждении?',
      'Чи має компанія рахунок в іншому банку або платіжній установі?',
    ],
    [
      'Name the bank or institution and its country',
      'Indique el banco o la entidad y su país',
      'Indique o banco ou a instituição e o respetivo país',
      'Indicați banca sau instituția și țara acesteia',
      'Укажите банк или учреждение и страну',
      'Вкажіть банк або установу та країну',
    ],
  ),
  {
    id: 'controlAccount',
    question: [
      'Who will control the account?',
      '¿Quién controlará la cuenta?',
      'Quem controlará a conta?',
      'Cine va controla contul?',
      'Кто будет управлять счётом?',
      'Хто керуватиме рахунком?',
    ],
    data: {
      type: 'radio',
      options: [
        {
          value: 1,
          labels: fromTuple([
            "The company's own directors and authorised users",
            'Los propios administradores y usuarios autorizados de la empresa',
            'Os próprios administradores e utilizadores autorizados da empresa',
            'Administratorii și utilizatorii autorizați ai companiei',
            'Директора и уполномоченные пользователи компании',
            'Директори та уповноважені користувачі компанії',
          ]),
        },
        {
          value: 2,
          labels: fromTuple([
            'A third party acting for the company',
            'Un tercero que actúa en nombre de la empresa',
            'Um terceiro que atua em nome da empresa',
            'O terță parte care acționează în numele companiei',
            'Третье лицо, действующее от имени компании',
            'Третя особа, яка діє від імені компанії',
          ]),
        },
      ],
      followUp: {
        when: 2,
        id: 'controlAccountValue',
        type: 'nameDate',
        questions: fromTuple([
          'Full name and date of birth of the person who controls the account',
          'Nombre completo y fecha de nacimiento de la persona que controla la cuenta',
          'Nome completo e data de nascimento da pessoa que controla a conta',
          'Numele complet și data nașterii persoanei care controlează contul',
          'ФИО и дата рождения лица, управляющего счётом',
          'ПІБ і дата народження особи, яка керує рахунком',
        ]),
      },
    },
  },
  yesNoWithDetails(
    'sanctionedCountries',
    [
      'Does the company do business with countries under international sanctions?',
      '¿Opera la empresa con países sujetos a sanciones internacionales?',
      'A empresa faz negócios com países sujeitos a sanções internacionais?',
      'Desfășoară compania activități cu țări aflate sub sancțiuni internaționale?',
      'Ведёт ли компания дела со странами под международными санкциями?',
      'Чи веде компанія справи з країнами під міжнародними санкціями?',
    ],
    [
      'Name the countries and describe the business',
      'Indique los países y describa la actividad',
      'Indique os países e descreva a atividade',
      'Indicați țările și descrieți activitatea',
      'Укажите страны и опишите деятельность',
      'Вкажіть країни та опишіть діяльність',
    ],
  ),
  textarea('mainCounterparties', [
    'Name your main customers and suppliers',
    'Indique sus principales clientes y proveedores',
    'Indique os seus principais clientes e fornecedores',
    'Indicați principalii clienți și furnizori',
    'Назовите ваших основных клиентов и поставщиков',
    'Назвіть ваших основних клієнтів і постачальників',
  ]),
];

function rows(dictionary: DictionaryRow['dictionary'], questions: readonly QuestionSeed[]): DictionaryRow[] {
  return questions.map((question, index) => ({
    dictionary,
    itemKey: question.id,
    sortOrder: (index + 1) * 10,
    parentKey: null,
    data: question.data,
    names: fromTuple(question.question),
  }));
}

export function additionalQuestionRows(): DictionaryRow[] {
  return [
    ...rows(DictionaryKey.personalAdditionalQuestions, personalQuestions),
    ...rows(DictionaryKey.businessAdditionalQuestions, businessQuestions),
  ];
}
