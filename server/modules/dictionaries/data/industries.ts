/**
 * Industries in their groups. The adult group exists for brands that serve adult businesses;
 * variants with `hideAdult` ask the platform to leave it out (dictionaryIndustry { hideAdult }).
 * Industry ids are unique across groups (group n uses n01..n99) so a stored answer names one.
 */
import { DictionaryKey, fromTuple, type DictionaryRow, type NameTuple } from './types.ts';

export const industryGroupIds = ['mainstream', 'financial', 'investment', 'adult'] as const;
export type IndustryGroupId = (typeof industryGroupIds)[number];

const groups: Record<IndustryGroupId, NameTuple> = {
  mainstream: ['Mainstream', 'Sectores generales', 'Setores gerais', 'Domenii generale', 'Основные отрасли', 'Основні галузі'],
  financial: ['Financial services', 'Servicios financieros', 'Serviços financeiros', 'Servicii financiare', 'Финансовые услуги', 'Фінансові послуги'],
  investment: ['Investment', 'Inversión', 'Investimento', 'Investiții', 'Инвестиции', 'Інвестиції'],
  adult: ['Adult', 'Para adultos', 'Para adultos', 'Pentru adulți', 'Для взрослых', 'Для дорослих'],
};

const industries: Record<IndustryGroupId, readonly (readonly [number, NameTuple])[]> = {
  mainstream: [
    [101, ['Retail and e-commerce', 'Comercio minorista y electrónico', 'Comércio a retalho e eletrónico', 'Comerț cu amănuntul și electronic', 'Розничная и электронная торговля', 'Роздрібна та електронна торгівля']],
    [102, ['Wholesale', 'Comercio mayorista', 'Comércio por grosso', 'Comerț cu ridicata', 'Оптовая торговля', 'Оптова торгівля']],
    [103, ['Manufacturing', 'Fabricación', 'Indústria transformadora', 'Producție', 'Производство', 'Виробництво']],
    [104, ['Construction', 'Construcción', 'Construção', 'Construcții', 'Строительство', 'Будівництво']],
    [105, ['Real estate', 'Inmobiliario', 'Imobiliário', 'Imobiliare', 'Недвижимость', 'Нерухомість']],
    [106, ['IT and software', 'Informática y software', 'Informática e software', 'IT și software', 'ИТ и программное обеспечение', 'ІТ та програмне забезпечення']],
    [107, ['Telecommunications', 'Telecomunicaciones', 'Telecomunicações', 'Telecomunicații', 'Телекоммуникации', 'Телекомунікації']],
    [108, ['Consulting and professional services', 'Consultoría y servicios profesionales', 'Consultoria e serviços profissionais', 'Consultanță și servicii profesionale', 'Консалтинг и профессиональные услуги', 'Консалтинг і професійні послуги']],
    [109, ['Marketing and advertising', 'Marketing y publicidad', 'Marketing e publicidade', 'Marketing și publicitate', 'Маркетинг и реклама', 'Маркетинг і реклама']],
    [110, ['Media and entertainment', 'Medios y entretenimiento', 'Media e entretenimento', 'Media și divertisment', 'СМИ и развлечения', 'ЗМІ та розваги']],
    [111, ['Hospitality and food services', 'Hostelería y restauración', 'Hotelaria e restauração', 'Hoteluri și restaurante', 'Гостиницы и общепит', 'Готелі та громадське харчування']],
    [112, ['Travel and tourism', 'Viajes y turismo', 'Viagens e turismo', 'Călătorii și turism', 'Путешествия и туризм', 'Подорожі та туризм']],
    [113, ['Transport and logistics', 'Transporte y logística', 'Transportes e logística', 'Transport și logistică', 'Транспорт и логистика', 'Транспорт і логістика']],
    [114, ['Healthcare', 'Sanidad', 'Saúde', 'Sănătate', 'Здравоохранение', 'Охорона здоровʼя']],
    [115, ['Education', 'Educación', 'Educação', 'Educație', 'Образование', 'Освіта']],
    [116, ['Agriculture', 'Agricultura', 'Agricultura', 'Agricultură', 'Сельское хозяйство', 'Сільське господарство']],
    [117, ['Energy and utilities', 'Energía y suministros', 'Energia e serviços públicos', 'Energie și utilități', 'Энергетика и коммунальные услуги', 'Енергетика та комунальні послуги']],
    [118, ['Video games and esports', 'Videojuegos y deportes electrónicos', 'Videojogos e desportos eletrónicos', 'Jocuri video și esports', 'Видеоигры и киберспорт', 'Відеоігри та кіберспорт']],
    [119, ['Non-profit and charity', 'Sin ánimo de lucro y beneficencia', 'Sem fins lucrativos e beneficência', 'Non-profit și caritate', 'Некоммерческие и благотворительные организации', 'Неприбуткові та благодійні організації']],
  ],
  financial: [
    [201, ['Payment services and e-money', 'Servicios de pago y dinero electrónico', 'Serviços de pagamento e moeda eletrónica', 'Servicii de plată și monedă electronică', 'Платёжные услуги и электронные деньги', 'Платіжні послуги та електронні гроші']],
    [202, ['Money remittance', 'Envío de remesas', 'Envio de remessas', 'Servicii de remitere de bani', 'Денежные переводы', 'Грошові перекази']],
    [203, ['Currency exchange', 'Cambio de divisas', 'Câmbio', 'Schimb valutar', 'Обмен валют', 'Обмін валют']],
    [204, ['Crypto-asset services', 'Servicios de criptoactivos', 'Serviços de criptoativos', 'Servicii cu criptoactive', 'Услуги с криптоактивами', 'Послуги з криптоактивами']],
    [205, ['Lending and credit', 'Préstamos y crédito', 'Empréstimos e crédito', 'Creditare', 'Кредитование', 'Кредитування']],
    [206, ['Insurance', 'Seguros', 'Seguros', 'Asigurări', 'Страхование', 'Страхування']],
  ],
  investment: [
    [301, ['Asset and fund management', 'Gestión de activos y fondos', 'Gestão de ativos e fundos', 'Administrarea activelor și a fondurilor', 'Управление активами и фондами', 'Управління активами та фондами']],
    [302, ['Brokerage and trading', 'Intermediación y trading', 'Corretagem e negociação', 'Brokeraj și tranzacționare', 'Брокерские услуги и трейдинг', 'Брокерські послуги та трейдинг']],
    [303, ['Private equity and venture capital', 'Capital privado y capital riesgo', 'Private equity e capital de risco', 'Private equity și capital de risc', 'Прямые и венчурные инвестиции', 'Прямі та венчурні інвестиції']],
    [304, ['Investment advice', 'Asesoramiento en inversiones', 'Consultoria de investimento', 'Consultanță de investiții', 'Инвестиционное консультирование', 'Інвестиційне консультування']],
  ],
  adult: [
    [401, ['Adult content creation', 'Creación de contenido para adultos', 'Criação de conteúdo para adultos', 'Creare de conținut pentru adulți', 'Создание контента для взрослых', 'Створення контенту для дорослих']],
    [402, ['Adult live streaming and webcam studios', 'Transmisión en directo para adultos y estudios de webcam', 'Transmissão ao vivo para adultos e estúdios de webcam', 'Streaming live pentru adulți și studiouri de videochat', 'Трансляции для взрослых и вебкам-студии', 'Трансляції для дорослих і вебкам-студії']],
    [403, ['Adult entertainment venues', 'Locales de entretenimiento para adultos', 'Espaços de entretenimento para adultos', 'Localuri de divertisment pentru adulți', 'Развлекательные заведения для взрослых', 'Розважальні заклади для дорослих']],
    [404, ['Dating services', 'Servicios de citas', 'Serviços de encontros', 'Servicii de întâlniri', 'Сервисы знакомств', 'Сервіси знайомств']],
    [405, ['Adult products retail', 'Venta de productos para adultos', 'Venda de produtos para adultos', 'Comerț cu produse pentru adulți', 'Продажа товаров для взрослых', 'Продаж товарів для дорослих']],
  ],
};

export function industryRows(): DictionaryRow[] {
  const rows: DictionaryRow[] = [];
  industryGroupIds.forEach((groupId, groupIndex) => {
    rows.push({
      dictionary: DictionaryKey.industryGroups,
      itemKey: groupId,
      sortOrder: (groupIndex + 1) * 10,
      parentKey: null,
      data: {},
      names: fromTuple(groups[groupId]),
    });
    industries[groupId].forEach(([id, tuple], index) => {
      rows.push({
        dictionary: DictionaryKey.industries,
        itemKey: String(id),
        sortOrder: (index + 1) * 10,
        parentKey: groupId,
        data: {},
        names: fromTuple(tuple),
      });
    });
  });
  return rows;
}
