/**
 * /news (document 2 §7 Announcements and notifications; document 3 §2-§4): the notification
 * centre (the acting customer's notifications, newest first, 20 a page; each opens its target and
 * is then read; all can be marked read) and the provider's announcements (one opened at a time,
 * which reads it; those that ask are accepted or declined once, the answer shown afterwards).
 */
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { NOTIFICATIONS_PAGE_SIZE, type Announcement, type Notification } from '../../../api/notifications.ts';
import { formatDateTime } from '../../lib/format.ts';
import { getUiLanguageTag } from '../../lib/i18n.ts';
import { callMethod } from '../../lib/request-later.ts';
import { Alert } from '../../ui/alert.tsx';
import { Badge } from '../../ui/badge.tsx';
import { Button, ButtonGroup } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { BellIcon, NewsIcon } from '../../ui/icons.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { notificationText } from './messages.ts';
import { announcementsQuery, invalidateNotifications, notificationsListQuery } from './queries.ts';
import { targetHref } from './targets.ts';
import './notifications.css';

export interface NewsViewProps {
  actingCustomerId: number | null;
  page: number;
  onPage(page: number): void;
  /** the announcement opened (its id), or none */
  openId: number | null;
  onOpen(id: number | null): void;
}

export function NewsView({ actingCustomerId, page, onPage, openId, onOpen }: NewsViewProps) {
  const { t } = useLingui();
  return (
    <div className="news-page">
      <StepHeading>{t`News and notifications`}</StepHeading>
      <NotificationCentre actingCustomerId={actingCustomerId} page={page} onPage={onPage} />
      <Announcements actingCustomerId={actingCustomerId} openId={openId} onOpen={onOpen} />
    </div>
  );
}

function NotificationCentre({ actingCustomerId, page, onPage }: { actingCustomerId: number | null; page: number; onPage(page: number): void }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const query = useQuery(notificationsListQuery(actingCustomerId, page));
  const [failed, setFailed] = useState(false);
  const total = query.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / NOTIFICATIONS_PAGE_SIZE));

  const read = async (body: { ids: number[] } | { all: true }) => {
    const answer = await callMethod('notificationsRead', body);
    setFailed(answer.responseCode !== '00');
    await invalidateNotifications(queryClient);
  };
  const open = (n: Notification) => {
    const href = targetHref(n.target, n.params);
    if (n.status === 'unread') void read({ ids: [n.id] });
    if (href) void navigate({ href });
  };

  return (
    <Card
      as="section"
      title={t`Notifications`}
      action={
        query.data && query.data.unread > 0 ? (
          <Button variant="secondary" size="sm" onClick={() => void read({ all: true })}>
            {t`Mark all as read`}
          </Button>
        ) : null
      }
    >
      {query.isPending ? <Spinner label={t`Loading the notifications`} /> : null}
      {query.isError ? <Alert tone="error">{t`The notifications could not be loaded.`}</Alert> : null}
      {failed ? <Alert tone="error">{t`The notifications could not be marked as read. Try again.`}</Alert> : null}
      {query.data ? (
        query.data.notifications.length === 0 ? (
          <EmptyState icon={BellIcon} headingLevel={3} title={t`No notifications`} text={t`What happens to your payments, contracts and support tickets will be listed here.`} />
        ) : (
          <>
            <ul className="notification-list">
              {query.data.notifications.map((n) => {
                const text = notificationText(i18n, n);
                const href = targetHref(n.target, n.params);
                return (
                  <li key={n.id} className="notification-item" data-unread={n.status === 'unread'}>
                    <div className="notification-text">
                      <p className="notification-title">
                        {text.title} {n.status === 'unread' ? <Badge tone="info">{t`New`}</Badge> : null}
                      </p>
                      {text.body ? <p className="notification-body">{text.body}</p> : null}
                      <time className="notification-date" dateTime={n.createdAt}>
                        {formatDateTime(n.createdAt, getUiLanguageTag())}
                      </time>
                    </div>
                    <ButtonGroup>
                      {href ? (
                        <Button variant="secondary" size="sm" onClick={() => open(n)} aria-label={t`Open: ${text.title}`}>
                          {t`Open`}
                        </Button>
                      ) : null}
                      {n.status === 'unread' && !href ? (
                        <Button variant="link" size="sm" onClick={() => void read({ ids: [n.id] })} aria-label={t`Mark as read: ${text.title}`}>
                          {t`Mark as read`}
                        </Button>
                      ) : null}
                    </ButtonGroup>
                  </li>
                );
              })}
            </ul>
            {pages > 1 ? (
              <nav aria-label={t`Pages`} className="actions">
                <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
                  {t`Newer`}
                </Button>
                <Button variant="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
                  {t`Older`}
                </Button>
              </nav>
            ) : null}
          </>
        )
      ) : null}
    </Card>
  );
}

function Announcements({ actingCustomerId, openId, onOpen }: { actingCustomerId: number | null; openId: number | null; onOpen(id: number | null): void }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const query = useQuery(announcementsQuery(actingCustomerId));
  const [status, setStatus] = useState<'saved' | 'failed' | null>(null);

  const toggle = (a: Announcement) => {
    if (openId === a.id) return onOpen(null);
    onOpen(a.id);
    // reading it: the platform marks it read (announcementGet), then the bell and the list read again
    if (!a.read) void callMethod('announcementGet', { id: a.id }).then(() => invalidateNotifications(queryClient));
  };
  const choose = async (a: Announcement, choice: 'accept' | 'decline') => {
    const answer = await callMethod('announcementAccept', { id: a.id, choice });
    setStatus(answer.responseCode === '00' ? 'saved' : 'failed');
    await invalidateNotifications(queryClient);
  };

  return (
    <Card as="section" title={t`Announcements`}>
      {query.isPending ? <Spinner label={t`Loading the announcements`} /> : null}
      {query.isError ? <Alert tone="error">{t`The announcements could not be loaded.`}</Alert> : null}
      <div role="status" className="news-status">
        {status === 'saved' ? t`Your answer was saved.` : null}
      </div>
      {status === 'failed' ? <Alert tone="error">{t`Your answer could not be saved. Try again.`}</Alert> : null}
      {query.data ? (
        query.data.announcements.length === 0 ? (
          <EmptyState icon={NewsIcon} headingLevel={3} title={t`No announcements`} text={t`News from us will appear here.`} />
        ) : (
          <ul className="announcement-list">
            {query.data.announcements.map((a) => {
              const opened = openId === a.id;
              const bodyId = `announcement-${a.id}`;
              return (
                <li key={a.id} className="announcement-item">
                  <h3 className="announcement-title">
                    <button type="button" className="announcement-toggle" aria-expanded={opened} aria-controls={bodyId} onClick={() => toggle(a)}>
                      {a.title}
                    </button>{' '}
                    {!a.read ? <Badge tone="info">{t`New`}</Badge> : null}
                    {a.requiresChoice && a.choice === null ? <Badge tone="warning">{t`Your answer is needed`}</Badge> : null}
                  </h3>
                  <time className="notification-date" dateTime={a.publishedAt}>
                    {formatDateTime(a.publishedAt, getUiLanguageTag())}
                  </time>
                  {opened ? (
                    <div id={bodyId} className="announcement-body">
                      <p>{a.body}</p>
                      {a.requiresChoice ? (
                        a.choice === null ? (
                          <ButtonGroup label={t`Your answer`}>
                            <Button onClick={() => void choose(a, 'accept')}>{t`Accept`}</Button>
                            <Button variant="secondary" onClick={() => void choose(a, 'decline')}>
                              {t`Decline`}
                            </Button>
                          </ButtonGroup>
                        ) : (
                          <p className="announcement-choice">
                            <Badge tone={a.choice === 'accepted' ? 'success' : 'neutral'}>{a.choice === 'accepted' ? t`You accepted` : t`You declined`}</Badge>
                          </p>
                        )
                      ) : null}
                    </div>
                  ) : null}
                </li>
              );
            })}
          </ul>
        )
      ) : null}
    </Card>
  );
}
