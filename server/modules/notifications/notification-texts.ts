/**
 * The words of every notification type (api/notifications.ts NOTIFICATION_TYPES) in the six UI
 * languages: the title and body kept with the notification and pushed (the customer's language),
 * and the e-mail sent for the types that are e-mailed (each user's own language). The server has
 * no message catalog (Lingui runs in the web app): a typed table per language, so the compiler
 * makes sure no language misses a type. The web app says the same things with its own catalog
 * (src/features/notifications/messages.ts) in the reader's language; these are what a push, the
 * centre's fallback and an e-mail carry.
 *
 * {name} is replaced by the notification's parameter of that name (the target's contractId,
 * ticketNumber or batchId among them); a parameter that is absent leaves the sentence that names
 * it out (OPTIONAL below), so no "{counterparty}" ever reaches a customer.
 */
import type { NotificationType } from '../../../api/notifications.ts';
import type { UiLanguage } from '../dictionaries/dictionaries.tables.ts';

export interface NotificationWords {
  title: string;
  body: string;
}

export interface MailWords {
  /** the e-mail's last paragraph: why it came and how to stop it */
  footer: string;
  /** the line pointing to where the matter is seen in the app */
  seeInApp: string;
}

type Texts = Record<NotificationType, NotificationWords>;

export const NOTIFICATION_TEXTS: Record<UiLanguage, Texts> = {
  en: {
    contractCreated: { title: 'New revenue-split contract', body: 'Contract {contractId} was created and waits for signatures.' },
    contractSigned: { title: 'Contract signed', body: 'Contract {contractId} was signed by {counterparty}.' },
    contractActive: { title: 'Contract active', body: 'Contract {contractId} is active: incoming payments it covers are now split.' },
    contractRejected: { title: 'Contract rejected', body: 'Contract {contractId} was rejected.' },
    contractCancelled: { title: 'Contract cancelled', body: 'Contract {contractId} was cancelled.' },
    contractTerminating: { title: 'Contract ending', body: 'Termination of contract {contractId} was asked for.' },
    contractTerminated: { title: 'Contract ended', body: 'Contract {contractId} has ended: payments are no longer split.' },
    contractExpired: { title: 'Contract expired', body: 'Contract {contractId} expired before it was signed by both sides.' },
    ticketReply: { title: 'Support replied', body: 'There is a new reply in your support ticket {ticketNumber}.' },
    ticketClosed: { title: 'Support ticket closed', body: 'Your support ticket {ticketNumber} was closed.' },
    batchPartial: { title: 'Batch partly paid', body: '{failed} of {total} payments in batch {batchId} failed.' },
    documentRejected: { title: 'Document rejected', body: 'A document you provided was rejected. Open your profile to see why and provide a new one.' },
    usernameChangeFailed: { title: 'Username not changed', body: 'Your username change could not be completed. Open your profile to try again.' },
  },
  es: {
    contractCreated: { title: 'Nuevo contrato de reparto de ingresos', body: 'Se ha creado el contrato {contractId} y espera las firmas.' },
    contractSigned: { title: 'Contrato firmado', body: '{counterparty} ha firmado el contrato {contractId}.' },
    contractActive: { title: 'Contrato activo', body: 'El contrato {contractId} está activo: los pagos entrantes que cubre ya se reparten.' },
    contractRejected: { title: 'Contrato rechazado', body: 'El contrato {contractId} ha sido rechazado.' },
    contractCancelled: { title: 'Contrato cancelado', body: 'El contrato {contractId} ha sido cancelado.' },
    contractTerminating: { title: 'Contrato en rescisión', body: 'Se ha pedido la rescisión del contrato {contractId}.' },
    contractTerminated: { title: 'Contrato finalizado', body: 'El contrato {contractId} ha finalizado: los pagos ya no se reparten.' },
    contractExpired: { title: 'Contrato caducado', body: 'El contrato {contractId} caducó antes de que lo firmaran ambas partes.' },
    ticketReply: { title: 'Respuesta de soporte', body: 'Hay una nueva respuesta en su ticket de soporte {ticketNumber}.' },
    ticketClosed: { title: 'Ticket de soporte cerrado', body: 'Su ticket de soporte {ticketNumber} ha sido cerrado.' },
    batchPartial: { title: 'Lote pagado en parte', body: 'Han fallado {failed} de {total} pagos del lote {batchId}.' },
    documentRejected: { title: 'Documento rechazado', body: 'Un documento que aportó ha sido rechazado. Abra su perfil para ver el motivo y aportar uno nuevo.' },
    usernameChangeFailed: { title: 'Nombre de usuario sin cambiar', body: 'No se pudo completar el cambio de su nombre de usuario. Abra su perfil para intentarlo de nuevo.' },
  },
  pt: {
    contractCreated: { title: 'Novo contrato de partilha de receitas', body: 'O contrato {contractId} foi criado e aguarda as assinaturas.' },
    contractSigned: { title: 'Contrato assinado', body: '{counterparty} assinou o contrato {contractId}.' },
    contractActive: { title: 'Contrato ativo', body: 'O contrato {contractId} está ativo: os pagamentos recebidos que abrange são agora repartidos.' },
    contractRejected: { title: 'Contrato rejeitado', body: 'O contrato {contractId} foi rejeitado.' },
    contractCancelled: { title: 'Contrato cancelado', body: 'O contrato {contractId} foi cancelado.' },
    contractTerminating: { title: 'Contrato em rescisão', body: 'Foi pedida a rescisão do contrato {contractId}.' },
    contractTerminated: { title: 'Contrato terminado', body: 'O contrato {contractId} terminou: os pagamentos já não são repartidos.' },
    contractExpired: { title: 'Contrato expirado', body: 'O contrato {contractId} expirou antes de ser assinado por ambas as partes.' },
    ticketReply: { title: 'Resposta do apoio', body: 'Há uma nova resposta no seu pedido de apoio {ticketNumber}.' },
    ticketClosed: { title: 'Pedido de apoio fechado', body: 'O seu pedido de apoio {ticketNumber} foi fechado.' },
    batchPartial: { title: 'Lote pago em parte', body: 'Falharam {failed} de {total} pagamentos do lote {batchId}.' },
    documentRejected: { title: 'Documento rejeitado', body: 'Um documento que forneceu foi rejeitado. Abra o seu perfil para ver o motivo e fornecer um novo.' },
    usernameChangeFailed: {
      title: 'Nome de utilizador não alterado',
      body: 'Não foi possível concluir a alteração do seu nome de utilizador. Abra o seu perfil para tentar de novo.',
    },
  },
  ro: {
    contractCreated: { title: 'Contract nou de împărțire a veniturilor', body: 'Contractul {contractId} a fost creat și așteaptă semnăturile.' },
    contractSigned: { title: 'Contract semnat', body: '{counterparty} a semnat contractul {contractId}.' },
    contractActive: { title: 'Contract activ', body: 'Contractul {contractId} este activ: plățile primite pe care le acoperă se împart de acum.' },
    contractRejected: { title: 'Contract respins', body: 'Contractul {contractId} a fost respins.' },
    contractCancelled: { title: 'Contract anulat', body: 'Contractul {contractId} a fost anulat.' },
    contractTerminating: { title: 'Contract în curs de reziliere', body: 'S-a cerut rezilierea contractului {contractId}.' },
    contractTerminated: { title: 'Contract încheiat', body: 'Contractul {contractId} s-a încheiat: plățile nu se mai împart.' },
    contractExpired: { title: 'Contract expirat', body: 'Contractul {contractId} a expirat înainte de a fi semnat de ambele părți.' },
    ticketReply: { title: 'Răspuns de la asistență', body: 'Există un răspuns nou la solicitarea de asistență {ticketNumber}.' },
    ticketClosed: { title: 'Solicitare de asistență închisă', body: 'Solicitarea dvs. de asistență {ticketNumber} a fost închisă.' },
    batchPartial: { title: 'Lot plătit parțial', body: '{failed} din {total} plăți din lotul {batchId} au eșuat.' },
    documentRejected: { title: 'Document respins', body: 'Un document pe care l-ați furnizat a fost respins. Deschideți profilul pentru a vedea motivul și a furniza unul nou.' },
    usernameChangeFailed: {
      title: 'Numele de utilizator nu a fost schimbat',
      body: 'Schimbarea numelui de utilizator nu a putut fi finalizată. Deschideți profilul pentru a încerca din nou.',
    },
  },
  ru: {
    contractCreated: { title: 'Новый договор о разделе доходов', body: 'Договор {contractId} создан и ожидает подписей.' },
    contractSigned: { title: 'Договор подписан', body: '{counterparty} подписал(а) договор {contractId}.' },
    contractActive: { title: 'Договор действует', body: 'Договор {contractId} действует: входящие платежи, которые он охватывает, теперь делятся.' },
    contractRejected: { title: 'Договор отклонён', body: 'Договор {contractId} отклонён.' },
    contractCancelled: { title: 'Договор отменён', body: 'Договор {contractId} отменён.' },
    contractTerminating: { title: 'Договор расторгается', body: 'Запрошено расторжение договора {contractId}.' },
    contractTerminated: { title: 'Договор прекращён', body: 'Договор {contractId} прекращён: платежи больше не делятся.' },
    contractExpired: { title: 'Срок договора истёк', body: 'Срок договора {contractId} истёк до того, как его подписали обе стороны.' },
    ticketReply: { title: 'Ответ поддержки', body: 'В вашем обращении в поддержку {ticketNumber} новый ответ.' },
    ticketClosed: { title: 'Обращение закрыто', body: 'Ваше обращение в поддержку {ticketNumber} закрыто.' },
    batchPartial: { title: 'Пакет оплачен частично', body: 'Не прошли {failed} из {total} платежей пакета {batchId}.' },
    documentRejected: { title: 'Документ отклонён', body: 'Предоставленный вами документ отклонён. Откройте профиль, чтобы узнать причину и предоставить новый.' },
    usernameChangeFailed: { title: 'Имя пользователя не изменено', body: 'Не удалось завершить смену имени пользователя. Откройте профиль, чтобы попробовать снова.' },
  },
  uk: {
    contractCreated: { title: 'Новий договір про розподіл доходів', body: 'Договір {contractId} створено, він очікує підписів.' },
    contractSigned: { title: 'Договір підписано', body: '{counterparty} підписав(ла) договір {contractId}.' },
    contractActive: { title: 'Договір діє', body: 'Договір {contractId} діє: вхідні платежі, які він охоплює, тепер розподіляються.' },
    contractRejected: { title: 'Договір відхилено', body: 'Договір {contractId} відхилено.' },
    contractCancelled: { title: 'Договір скасовано', body: 'Договір {contractId} скасовано.' },
    contractTerminating: { title: 'Договір розривається', body: 'Надіслано запит на розірвання договору {contractId}.' },
    contractTerminated: { title: 'Договір припинено', body: 'Договір {contractId} припинено: платежі більше не розподіляються.' },
    contractExpired: { title: 'Строк договору минув', body: 'Строк договору {contractId} минув до того, як його підписали обидві сторони.' },
    ticketReply: { title: 'Відповідь підтримки', body: 'У вашому зверненні до підтримки {ticketNumber} нова відповідь.' },
    ticketClosed: { title: 'Звернення закрито', body: 'Ваше звернення до підтримки {ticketNumber} закрито.' },
    batchPartial: { title: 'Пакет оплачено частково', body: 'Не пройшли {failed} з {total} платежів пакета {batchId}.' },
    documentRejected: { title: 'Документ відхилено', body: 'Наданий вами документ відхилено. Відкрийте профіль, щоб дізнатися причину й надати новий.' },
    usernameChangeFailed: { title: 'Ім’я користувача не змінено', body: 'Не вдалося завершити зміну імені користувача. Відкрийте профіль, щоб спробувати знову.' },
  },
};

/** The sentence of a body to drop when its parameter is absent (the body without it still reads). */
const OPTIONAL: Partial<Record<NotificationType, Record<UiLanguage, NotificationWords['body']>>> = {
  contractSigned: {
    en: 'Contract {contractId} was signed.',
    es: 'El contrato {contractId} ha sido firmado.',
    pt: 'O contrato {contractId} foi assinado.',
    ro: 'Contractul {contractId} a fost semnat.',
    ru: 'Договор {contractId} подписан.',
    uk: 'Договір {contractId} підписано.',
  },
};

export const MAIL_TEXTS: Record<UiLanguage, MailWords> = {
  en: {
    seeInApp: 'Sign in to {provider} to see the details.',
    footer: 'You receive this e-mail because these notifications are switched on. You can switch them off in Profile, Notifications.',
  },
  es: {
    seeInApp: 'Inicie sesión en {provider} para ver los detalles.',
    footer: 'Recibe este correo porque estas notificaciones están activadas. Puede desactivarlas en Perfil, Notificaciones.',
  },
  pt: {
    seeInApp: 'Inicie sessão em {provider} para ver os detalhes.',
    footer: 'Recebe este e-mail porque estas notificações estão ativadas. Pode desativá-las em Perfil, Notificações.',
  },
  ro: {
    seeInApp: 'Conectați-vă la {provider} pentru a vedea detaliile.',
    footer: 'Primiți acest e-mail deoarece aceste notificări sunt activate. Le puteți dezactiva în Profil, Notificări.',
  },
  ru: {
    seeInApp: 'Войдите в {provider}, чтобы посмотреть подробности.',
    footer: 'Вы получили это письмо, потому что эти уведомления включены. Их можно отключить в разделе «Профиль», «Уведомления».',
  },
  uk: {
    seeInApp: 'Увійдіть до {provider}, щоб переглянути подробиці.',
    footer: 'Ви отримали цей лист, бо ці сповіщення увімкнено. Їх можна вимкнути в розділі «Профіль», «Сповіщення».',
  },
};

export type WordParams = Record<string, string | number | null | undefined>;

export function fill(text: string, params: WordParams): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    return value === null || value === undefined ? whole : String(value);
  });
}

const hasAll = (text: string, params: WordParams) => [...text.matchAll(/\{(\w+)\}/g)].every((m) => params[m[1]!] !== null && params[m[1]!] !== undefined);

/**
 * A known type's words in a language, filled; null for a type this table does not know (the caller
 * keeps the words it was given, or the type itself).
 */
export function renderWords(type: string, lang: UiLanguage, params: WordParams): NotificationWords | null {
  const texts = NOTIFICATION_TEXTS[lang] as Record<string, NotificationWords | undefined>;
  const words = texts[type];
  if (!words) return null;
  let body = words.body;
  if (!hasAll(body, params)) {
    const fallback = (OPTIONAL as Record<string, Record<UiLanguage, string> | undefined>)[type]?.[lang];
    if (fallback && hasAll(fallback, params)) body = fallback;
  }
  // a parameter still missing is a caller's bug: the placeholder goes rather than reaching a customer
  return { title: fill(words.title, params), body: fill(body, params).replace(/\s*\{\w+\}/g, '') };
}
