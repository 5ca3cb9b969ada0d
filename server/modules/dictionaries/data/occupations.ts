/**
 * Occupations (dictionaryOccupation: what the customer does) and the coarser employment statuses
 * (dictionaryOccupation2). Ids are stable: stored answers refer to them.
 */
import { DictionaryKey, namedRows, type DictionaryRow, type NameTuple } from './types.ts';

const occupations: readonly (readonly [number, NameTuple])[] = [
  [1, ['Accountant / auditor', 'Contable / auditor', 'Contabilista / auditor', 'Contabil / auditor', 'Бухгалтер / аудитор', 'Бухгалтер / аудитор']],
  [2, ['Administrative / office worker', 'Administrativo / oficinista', 'Administrativo / empregado de escritório', 'Funcționar administrativ', 'Офисный служащий', 'Офісний службовець']],
  [3, ['Agriculture / farming', 'Agricultura / ganadería', 'Agricultura / pecuária', 'Agricultură / fermă', 'Сельское хозяйство', 'Сільське господарство']],
  [4, ['Architect / engineer', 'Arquitecto / ingeniero', 'Arquiteto / engenheiro', 'Arhitect / inginer', 'Архитектор / инженер', 'Архітектор / інженер']],
  [5, ['Artist / designer', 'Artista / diseñador', 'Artista / designer', 'Artist / designer', 'Художник / дизайнер', 'Художник / дизайнер']],
  [6, ['Business owner / entrepreneur', 'Empresario / emprendedor', 'Empresário / empreendedor', 'Proprietar de afacere / antreprenor', 'Владелец бизнеса / предприниматель', 'Власник бізнесу / підприємець']],
  [7, ['Construction / trades', 'Construcción / oficios', 'Construção / ofícios', 'Construcții / meserii', 'Строительство / рабочие профессии', 'Будівництво / робітничі професії']],
  [8, ['Content creator / performer', 'Creador de contenido / artista escénico', 'Criador de conteúdo / artista', 'Creator de conținut / artist', 'Автор контента / исполнитель', 'Автор контенту / виконавець']],
  [9, ['Education / teacher', 'Educación / docente', 'Educação / professor', 'Educație / profesor', 'Образование / преподаватель', 'Освіта / викладач']],
  [10, ['Financial services / banking', 'Servicios financieros / banca', 'Serviços financeiros / banca', 'Servicii financiare / bănci', 'Финансовые услуги / банки', 'Фінансові послуги / банки']],
  [11, ['Government / public sector', 'Administración pública', 'Administração pública', 'Administrație publică', 'Государственная служба', 'Державна служба']],
  [12, ['Healthcare / medical', 'Sanidad / medicina', 'Saúde / medicina', 'Sănătate / medicină', 'Здравоохранение / медицина', 'Охорона здоровʼя / медицина']],
  [13, ['Hospitality / tourism', 'Hostelería / turismo', 'Hotelaria / turismo', 'Ospitalitate / turism', 'Гостиничный бизнес / туризм', 'Готельний бізнес / туризм']],
  [14, ['Information technology', 'Tecnologías de la información', 'Tecnologias da informação', 'Tehnologia informației', 'Информационные технологии', 'Інформаційні технології']],
  [15, ['Legal professional', 'Profesional del derecho', 'Profissional jurídico', 'Profesionist în domeniul juridic', 'Юрист', 'Юрист']],
  [16, ['Manufacturing / production', 'Fabricación / producción', 'Indústria / produção', 'Producție / fabricație', 'Производство', 'Виробництво']],
  [17, ['Marketing / advertising / media', 'Marketing / publicidad / medios', 'Marketing / publicidade / média', 'Marketing / publicitate / media', 'Маркетинг / реклама / СМИ', 'Маркетинг / реклама / ЗМІ']],
  [18, ['Military / police / security', 'Ejército / policía / seguridad', 'Militar / polícia / segurança', 'Armată / poliție / securitate', 'Армия / полиция / охрана', 'Армія / поліція / охорона']],
  [19, ['Real estate', 'Inmobiliaria', 'Imobiliário', 'Imobiliare', 'Недвижимость', 'Нерухомість']],
  [20, ['Retail / sales', 'Comercio / ventas', 'Comércio / vendas', 'Comerț / vânzări', 'Торговля / продажи', 'Торгівля / продажі']],
  [21, ['Science / research', 'Ciencia / investigación', 'Ciência / investigação', 'Știință / cercetare', 'Наука / исследования', 'Наука / дослідження']],
  [22, ['Social work / non-profit', 'Trabajo social / sin ánimo de lucro', 'Serviço social / sem fins lucrativos', 'Asistență socială / non-profit', 'Социальная работа / некоммерческий сектор', 'Соціальна робота / неприбутковий сектор']],
  [23, ['Sports / fitness', 'Deporte / fitness', 'Desporto / fitness', 'Sport / fitness', 'Спорт / фитнес', 'Спорт / фітнес']],
  [24, ['Transport / logistics', 'Transporte / logística', 'Transporte / logística', 'Transport / logistică', 'Транспорт / логистика', 'Транспорт / логістика']],
  [25, ['Other', 'Otra', 'Outra', 'Alta', 'Другое', 'Інше']],
];

const employmentStatuses: readonly (readonly [number, NameTuple])[] = [
  [1, ['Employed full-time', 'Empleado a tiempo completo', 'Empregado a tempo inteiro', 'Angajat cu normă întreagă', 'Работаю полный день', 'Працюю повний день']],
  [2, ['Employed part-time', 'Empleado a tiempo parcial', 'Empregado a tempo parcial', 'Angajat cu normă parțială', 'Работаю неполный день', 'Працюю неповний день']],
  [3, ['Self-employed / freelancer', 'Autónomo / freelance', 'Trabalhador independente / freelancer', 'Persoană fizică autorizată / freelancer', 'Самозанятый / фрилансер', 'Самозайнятий / фрилансер']],
  [4, ['Business owner', 'Propietario de empresa', 'Proprietário de empresa', 'Proprietar de afacere', 'Владелец бизнеса', 'Власник бізнесу']],
  [5, ['Company director', 'Director de empresa', 'Administrador de empresa', 'Director de companie', 'Директор компании', 'Директор компанії']],
  [6, ['Contractor', 'Contratista', 'Prestador de serviços', 'Contractor', 'Подрядчик', 'Підрядник']],
  [7, ['Unemployed', 'Desempleado', 'Desempregado', 'Șomer', 'Безработный', 'Безробітний']],
  [8, ['Student', 'Estudiante', 'Estudante', 'Student', 'Студент', 'Студент']],
  [9, ['Retired', 'Jubilado', 'Reformado', 'Pensionar', 'Пенсионер', 'Пенсіонер']],
  [10, ['Homemaker', 'Amo/a de casa', 'Doméstico/a', 'Casnic/ă', 'Домохозяйка / домохозяин', 'Домогосподарка / домогосподар']],
  [11, ['Military service', 'Servicio militar', 'Serviço militar', 'Serviciu militar', 'Военная служба', 'Військова служба']],
  [12, ['Other', 'Otro', 'Outro', 'Altul', 'Другое', 'Інше']],
];

export function occupationRows(): DictionaryRow[] {
  return [
    ...namedRows(DictionaryKey.occupations, occupations),
    ...namedRows(DictionaryKey.occupations2, employmentStatuses),
  ];
}
