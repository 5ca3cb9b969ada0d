/**
 * Sources of funds (personal in two variants, employee, business) and purposes of the account
 * (personal, business). Ids are stable per list: registration drafts store them.
 */
import { DictionaryKey, namedRows, type DictionaryRow, type NameTuple } from './types.ts';

type Items = readonly (readonly [number, NameTuple])[];

const personalSourceOfFunds: Items = [
  [1, ['Salary', 'Salario', 'Salário', 'Salariu', 'Заработная плата', 'Заробітна плата']],
  [2, ['Self-employment or business income', 'Ingresos como autónomo o de negocio', 'Rendimentos de trabalho independente ou empresariais', 'Venituri din activități independente sau afaceri', 'Доход от самозанятости или бизнеса', 'Дохід від самозайнятості або бізнесу']],
  [3, ['Savings', 'Ahorros', 'Poupanças', 'Economii', 'Сбережения', 'Заощадження']],
  [4, ['Investments and dividends', 'Inversiones y dividendos', 'Investimentos e dividendos', 'Investiții și dividende', 'Инвестиции и дивиденды', 'Інвестиції та дивіденди']],
  [5, ['Pension', 'Pensión', 'Pensão', 'Pensie', 'Пенсия', 'Пенсія']],
  [6, ['Inheritance', 'Herencia', 'Herança', 'Moștenire', 'Наследство', 'Спадщина']],
  [7, ['Gift', 'Donación', 'Doação', 'Donație', 'Подарок', 'Подарунок']],
  [8, ['Sale of property or assets', 'Venta de inmuebles o bienes', 'Venda de imóveis ou bens', 'Vânzarea unei proprietăți sau a unor bunuri', 'Продажа недвижимости или имущества', 'Продаж нерухомості або майна']],
  [9, ['Loan', 'Préstamo', 'Empréstimo', 'Împrumut', 'Заём', 'Позика']],
  [10, ['Social benefits', 'Prestaciones sociales', 'Prestações sociais', 'Prestații sociale', 'Социальные выплаты', 'Соціальні виплати']],
  [11, ['Other', 'Otro', 'Outro', 'Altele', 'Другое', 'Інше']],
];

/** The shorter variant used by the simplified personal registration. */
const personalSourceOfFunds2: Items = [
  [1, ['Employment income', 'Ingresos del trabajo', 'Rendimentos do trabalho', 'Venituri din muncă', 'Доход от работы по найму', 'Дохід від роботи за наймом']],
  [2, ['Business income', 'Ingresos de actividad empresarial', 'Rendimentos empresariais', 'Venituri din afaceri', 'Доход от бизнеса', 'Дохід від бізнесу']],
  [3, ['Savings and investments', 'Ahorros e inversiones', 'Poupanças e investimentos', 'Economii și investiții', 'Сбережения и инвестиции', 'Заощадження та інвестиції']],
  [4, ['Pension or benefits', 'Pensión o prestaciones', 'Pensão ou prestações', 'Pensie sau prestații sociale', 'Пенсия или пособия', 'Пенсія або допомога']],
  [5, ['Inheritance or gift', 'Herencia o donación', 'Herança ou doação', 'Moștenire sau donație', 'Наследство или подарок', 'Спадщина або подарунок']],
  [6, ['Sale of assets', 'Venta de bienes', 'Venda de bens', 'Vânzare de bunuri', 'Продажа имущества', 'Продаж майна']],
  [7, ['Other', 'Otro', 'Outro', 'Altele', 'Другое', 'Інше']],
];

const employeeSourceOfFunds: Items = [
  [1, ['Salary from the company', 'Salario de la empresa', 'Salário pago pela empresa', 'Salariu de la companie', 'Зарплата в компании', 'Зарплата в компанії']],
  [2, ['Bonus or commission', 'Bonificación o comisión', 'Prémio ou comissão', 'Bonus sau comision', 'Премия или комиссионные', 'Премія або комісійні']],
  [3, ['Dividends from the company', 'Dividendos de la empresa', 'Dividendos da empresa', 'Dividende de la companie', 'Дивиденды компании', 'Дивіденди компанії']],
  [4, ["Director's fees", 'Retribución de administrador', 'Remuneração de administrador', 'Indemnizație de administrator', 'Вознаграждение директора', 'Винагорода директора']],
  [5, ['Reimbursement of expenses', 'Reembolso de gastos', 'Reembolso de despesas', 'Decontarea cheltuielilor', 'Возмещение расходов', 'Відшкодування витрат']],
  [6, ['Personal savings', 'Ahorros personales', 'Poupanças pessoais', 'Economii personale', 'Личные сбережения', 'Особисті заощадження']],
  [7, ['Other', 'Otro', 'Outro', 'Altele', 'Другое', 'Інше']],
];

const businessSourceOfFunds: Items = [
  [1, ['Sales of goods', 'Venta de bienes', 'Venda de mercadorias', 'Vânzări de bunuri', 'Продажа товаров', 'Продаж товарів']],
  [2, ['Provision of services', 'Prestación de servicios', 'Prestação de serviços', 'Prestări de servicii', 'Оказание услуг', 'Надання послуг']],
  [3, ['Capital from shareholders', 'Aportaciones de los socios', 'Capital dos sócios', 'Capital de la acționari', 'Капитал акционеров', 'Капітал акціонерів']],
  [4, ['Loans and credit facilities', 'Préstamos y líneas de crédito', 'Empréstimos e linhas de crédito', 'Împrumuturi și linii de credit', 'Кредиты и кредитные линии', 'Кредити та кредитні лінії']],
  [5, ['Investment income', 'Rendimientos de inversiones', 'Rendimentos de investimentos', 'Venituri din investiții', 'Доход от инвестиций', 'Дохід від інвестицій']],
  [6, ['Grants and subsidies', 'Subvenciones y ayudas', 'Subsídios e apoios', 'Granturi și subvenții', 'Гранты и субсидии', 'Гранти та субсидії']],
  [7, ['Sale of assets', 'Venta de activos', 'Venda de ativos', 'Vânzare de active', 'Продажа активов', 'Продаж активів']],
  [8, ['Donations (non-profit)', 'Donaciones (sin ánimo de lucro)', 'Donativos (sem fins lucrativos)', 'Donații (organizații non-profit)', 'Пожертвования (некоммерческие организации)', 'Пожертви (неприбуткові організації)']],
  [9, ['Funding from the group', 'Financiación del grupo', 'Financiamento do grupo', 'Finanțare din partea grupului', 'Финансирование от группы компаний', 'Фінансування від групи компаній']],
  [10, ['Other', 'Otro', 'Outro', 'Altele', 'Другое', 'Інше']],
];

const personalPurposeOfAccount: Items = [
  [1, ['Everyday spending', 'Gastos diarios', 'Despesas do dia a dia', 'Cheltuieli zilnice', 'Повседневные расходы', 'Повсякденні витрати']],
  [2, ['Receiving my salary', 'Recibir mi salario', 'Receber o meu salário', 'Primirea salariului', 'Получение зарплаты', 'Отримання зарплати']],
  [3, ['Saving', 'Ahorrar', 'Poupar', 'Economisire', 'Накопления', 'Заощадження']],
  [4, ['Sending money to family and friends', 'Enviar dinero a familiares y amigos', 'Enviar dinheiro a família e amigos', 'Trimiterea de bani familiei și prietenilor', 'Переводы родным и друзьям', 'Перекази рідним і друзям']],
  [5, ['Online shopping', 'Compras en línea', 'Compras online', 'Cumpărături online', 'Покупки в интернете', 'Покупки в інтернеті']],
  [6, ['Travel', 'Viajes', 'Viagens', 'Călătorii', 'Путешествия', 'Подорожі']],
  [7, ['Receiving payments for freelance work', 'Cobrar trabajos como freelance', 'Receber pagamentos de trabalho freelance', 'Încasarea plăților pentru activități freelance', 'Получение оплаты за фриланс', 'Отримання оплати за фриланс']],
  [8, ['Buying and selling crypto', 'Comprar y vender cripto', 'Comprar e vender cripto', 'Cumpărarea și vânzarea de cripto', 'Покупка и продажа криптовалюты', 'Купівля та продаж криптовалюти']],
  [9, ['Investing', 'Invertir', 'Investir', 'Investiții', 'Инвестиции', 'Інвестиції']],
  [10, ['Other', 'Otro', 'Outro', 'Altul', 'Другое', 'Інше']],
];

const businessPurposeOfAccount: Items = [
  [1, ['Paying suppliers', 'Pagar a proveedores', 'Pagar a fornecedores', 'Plata furnizorilor', 'Оплата поставщикам', 'Оплата постачальникам']],
  [2, ['Receiving payments from customers', 'Cobrar a clientes', 'Receber pagamentos de clientes', 'Încasarea plăților de la clienți', 'Приём платежей от клиентов', 'Прийом платежів від клієнтів']],
  [3, ['Payroll', 'Nóminas', 'Processamento salarial', 'Plata salariilor', 'Выплата зарплат', 'Виплата зарплат']],
  [4, ['International trade', 'Comercio internacional', 'Comércio internacional', 'Comerț internațional', 'Международная торговля', 'Міжнародна торгівля']],
  [5, ['Currency exchange', 'Cambio de divisas', 'Câmbio de moeda', 'Schimb valutar', 'Обмен валют', 'Обмін валют']],
  [6, ['Treasury management', 'Gestión de tesorería', 'Gestão de tesouraria', 'Administrarea trezoreriei', 'Управление ликвидностью', 'Управління ліквідністю']],
  [7, ['Accepting online payments', 'Aceptar pagos en línea', 'Aceitar pagamentos online', 'Acceptarea plăților online', 'Приём онлайн-платежей', 'Прийом онлайн-платежів']],
  [8, ['Paying contractors and freelancers', 'Pagar a contratistas y freelancers', 'Pagar a prestadores de serviços e freelancers', 'Plata colaboratorilor și freelancerilor', 'Оплата подрядчикам и фрилансерам', 'Оплата підрядникам і фрилансерам']],
  [9, ['Transfers within the group', 'Transferencias dentro del grupo', 'Transferências dentro do grupo', 'Transferuri în cadrul grupului', 'Переводы внутри группы компаний', 'Перекази в межах групи компаній']],
  [10, ['Other', 'Otro', 'Outro', 'Altul', 'Другое', 'Інше']],
];

export function fundsAndPurposeRows(): DictionaryRow[] {
  return [
    ...namedRows(DictionaryKey.personalSourceOfFunds, personalSourceOfFunds),
    ...namedRows(DictionaryKey.personalSourceOfFunds2, personalSourceOfFunds2),
    ...namedRows(DictionaryKey.employeeSourceOfFunds, employeeSourceOfFunds),
    ...namedRows(DictionaryKey.businessSourceOfFunds, businessSourceOfFunds),
    ...namedRows(DictionaryKey.personalPurposeOfAccount, personalPurposeOfAccount),
    ...namedRows(DictionaryKey.businessPurposeOfAccount, businessPurposeOfAccount),
  ];
}
