/**
 * The demo's announcements and notifications (demo mode only, server/db/seed.ts): two announcements
 * for everyone (one asks to accept the new terms of a feature, so /news shows the choice), and the
 * default demo user's (anna's) notification centre: her support tickets' reply (unread) and close
 * (read), with the words of notification-texts.ts. Written directly: a seed pushes and mails nobody.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { Tx } from '../../db/types.ts';
import { supportTickets } from '../support/support.tables.ts';
import { renderWords } from './notification-texts.ts';
import { announcements, notifications } from './notifications.tables.ts';

const DAY = 86_400_000;

export interface DemoNotificationsInput {
  anna: { customerId: number; userId: number };
  adminUserId: number;
  nowMs: number;
}

/** The provider's words per language (announcements.texts). */
const SETTINGS_NEWS: Record<string, { title: string; body: string }> = {
  en: {
    title: 'Choose how we tell you things',
    body: 'You can now choose which notifications reach you by e-mail and on screen, group by group, under Profile, Notifications. Messages about the security of your account always reach you.',
  },
  es: {
    title: 'Elija cómo le avisamos',
    body: 'Ahora puede elegir qué notificaciones le llegan por correo electrónico y en pantalla, grupo por grupo, en Perfil, Notificaciones. Los mensajes sobre la seguridad de su cuenta le llegan siempre.',
  },
  pt: {
    title: 'Escolha como o avisamos',
    body: 'Agora pode escolher que notificações recebe por e-mail e no ecrã, grupo a grupo, em Perfil, Notificações. As mensagens sobre a segurança da sua conta chegam-lhe sempre.',
  },
  ro: {
    title: 'Alegeți cum vă anunțăm',
    body: 'Acum puteți alege ce notificări primiți prin e-mail și pe ecran, grup cu grup, în Profil, Notificări. Mesajele despre securitatea contului vă parvin întotdeauna.',
  },
  ru: {
    title: 'Выберите, как вас уведомлять',
    body: 'Теперь вы можете выбрать, какие уведомления получать по электронной почте и на экране, по группам, в разделе «Профиль», «Уведомления». Сообщения о безопасности вашего счёта приходят всегда.',
  },
  uk: {
    title: 'Оберіть, як вас сповіщати',
    body: 'Тепер ви можете обрати, які сповіщення отримувати електронною поштою та на екрані, за групами, у розділі «Профіль», «Сповіщення». Повідомлення про безпеку вашого рахунку надходять завжди.',
  },
};

const INSTANT_TERMS: Record<string, { title: string; body: string }> = {
  en: {
    title: 'New terms for instant payments',
    body: 'From next month instant payments reach more banks, and each one costs a fixed fee shown before you confirm it. Please accept or decline the new terms of instant payments. If you decline, instant payments are switched off for you; everything else works as before.',
  },
  es: {
    title: 'Nuevas condiciones de los pagos instantáneos',
    body: 'A partir del próximo mes los pagos instantáneos llegan a más bancos, y cada uno cuesta una comisión fija que se muestra antes de confirmarlo. Acepte o rechace las nuevas condiciones de los pagos instantáneos. Si las rechaza, los pagos instantáneos se desactivan para usted; todo lo demás funciona como antes.',
  },
  pt: {
    title: 'Novos termos dos pagamentos instantâneos',
    body: 'A partir do próximo mês os pagamentos instantâneos chegam a mais bancos, e cada um custa uma comissão fixa mostrada antes de o confirmar. Aceite ou recuse os novos termos dos pagamentos instantâneos. Se recusar, os pagamentos instantâneos ficam desativados para si; tudo o resto funciona como antes.',
  },
  ro: {
    title: 'Termeni noi pentru plățile instant',
    body: 'De luna viitoare plățile instant ajung la mai multe bănci, iar fiecare costă un comision fix afișat înainte de confirmare. Vă rugăm să acceptați sau să refuzați noii termeni ai plăților instant. Dacă refuzați, plățile instant se dezactivează pentru dvs.; restul funcționează ca înainte.',
  },
  ru: {
    title: 'Новые условия мгновенных платежей',
    body: 'Со следующего месяца мгновенные платежи доходят до большего числа банков, а каждый стоит фиксированную комиссию, которая показывается до подтверждения. Примите или отклоните новые условия мгновенных платежей. Если вы их отклоните, мгновенные платежи для вас отключатся; всё остальное работает как прежде.',
  },
  uk: {
    title: 'Нові умови миттєвих платежів',
    body: 'З наступного місяця миттєві платежі доходять до більшої кількості банків, а кожен коштує фіксовану комісію, яку показано до підтвердження. Прийміть або відхиліть нові умови миттєвих платежів. Якщо ви їх відхилите, миттєві платежі для вас вимкнуться; усе інше працює як раніше.',
  },
};

export async function seedDemoNotifications(tx: Tx, input: DemoNotificationsInput): Promise<void> {
  const { nowMs } = input;
  await tx.insert(announcements).values([
    {
      texts: SETTINGS_NEWS,
      audience: 'all',
      requiresChoice: false,
      publishedAt: new Date(nowMs - 3 * DAY),
      createdByUserId: input.adminUserId,
      createdAt: new Date(nowMs - 3 * DAY),
    },
    {
      texts: INSTANT_TERMS,
      audience: 'all',
      requiresChoice: true,
      publishedAt: new Date(nowMs - DAY),
      expiresAt: new Date(nowMs + 60 * DAY),
      createdByUserId: input.adminUserId,
      createdAt: new Date(nowMs - DAY),
    },
  ]);

  // Anna's tickets (demo-support.ts): the closed one, then the answered one.
  const tickets = await tx
    .select({ ticketNumber: supportTickets.ticketNumber, state: supportTickets.state, updatedAt: supportTickets.updatedAt })
    .from(supportTickets)
    .where(eq(supportTickets.customerId, input.anna.customerId))
    .orderBy(asc(supportTickets.createdAt));
  for (const ticket of tickets) {
    const closed = ticket.state.startsWith('closed');
    const type = closed ? 'ticketClosed' : 'ticketReply';
    const target = { kind: 'ticket' as const, ticketNumber: ticket.ticketNumber };
    // the support module may notify on its own seed's replies: none twice
    const [already] = await tx
      .select({ id: notifications.id })
      .from(notifications)
      .where(and(eq(notifications.customerId, input.anna.customerId), eq(notifications.type, type)));
    if (already) continue;
    const words = renderWords(type, 'en', { ticketNumber: ticket.ticketNumber }) ?? { title: type, body: '' };
    await tx.insert(notifications).values({
      customerId: input.anna.customerId,
      userId: input.anna.userId,
      type,
      params: { target: JSON.stringify(target) },
      title: words.title,
      body: words.body,
      status: closed ? 'read' : 'unread',
      readAt: closed ? ticket.updatedAt : null,
      createdAt: ticket.updatedAt,
    });
  }
}
