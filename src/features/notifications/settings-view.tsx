/**
 * /profile/notifications (document 2 §3 Notification setting, §7 notification settings get and
 * set): the settings by group, an e-mail and an on-screen switch each, saved at once with a polite
 * status message. Security messages are locked on: shown on and disabled, with why.
 */
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { NOTIFICATION_GROUPS, type NotificationGroup, type NotificationSetting } from '../../../api/notifications.ts';
import { callMethod } from '../../lib/request-later.ts';
import { Alert } from '../../ui/alert.tsx';
import { Card } from '../../ui/card.tsx';
import { Switch } from '../../ui/choice-fields.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StepHeading } from '../../ui/step-heading.tsx';
import { notificationSettingsQuery } from './queries.ts';
import './notifications.css';

const groupTitles: Record<NotificationGroup, MessageDescriptor> = {
  security: msg`Security`,
  account: msg`Your documents and username`,
  payments: msg`Payments`,
  contracts: msg`Revenue-split contracts`,
  support: msg`Support messages`,
  news: msg`News and announcements`,
};

const groupHints: Record<NotificationGroup, MessageDescriptor> = {
  security: msg`Sign-ins from a new device, password and two-step verification changes.`,
  account: msg`A document that was rejected, a username change that could not be completed.`,
  payments: msg`Batches that were paid only in part, payments waiting for approval.`,
  contracts: msg`A contract created, signed, started, rejected or ended.`,
  support: msg`Replies to your support tickets, and tickets closed.`,
  news: msg`New announcements from us.`,
};

type SaveState = { kind: 'saved'; on: boolean; label: string } | { kind: 'failed' } | null;

export function NotificationSettingsView() {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const query = useQuery(notificationSettingsQuery());
  const [saving, setSaving] = useState<string | null>(null);
  const [state, setState] = useState<SaveState>(null);

  const change = async (setting: NotificationSetting, value: boolean, label: string) => {
    setSaving(setting.identified);
    const answer = await callMethod('notificationSettingsSet', { identified: setting.identified, value });
    setSaving(null);
    if (!('setting' in answer)) {
      setState({ kind: 'failed' });
      return;
    }
    // the switch shows the saved value at once; the read confirms it
    queryClient.setQueryData(notificationSettingsQuery().queryKey, (old) =>
      old ? { ...old, settings: old.settings.map((s) => (s.identified === setting.identified ? answer.setting : s)) } : old,
    );
    setState({ kind: 'saved', on: value, label });
  };

  const channelLabel = (s: NotificationSetting) => (s.identified.endsWith('.email') ? t`By e-mail` : t`On screen`);

  return (
    <div className="notification-settings">
      <StepHeading>{t`Notifications`}</StepHeading>
      <p>{t`Choose which notifications reach you by e-mail and on screen. Everything is still listed in your notification centre.`}</p>
      <div role="status" className="news-status">
        {state?.kind === 'saved' ? (state.on ? t`Saved: ${state.label} is on.` : t`Saved: ${state.label} is off.`) : null}
      </div>
      {state?.kind === 'failed' ? <Alert tone="error">{t`The setting could not be saved. Try again.`}</Alert> : null}
      {query.isPending ? <Spinner label={t`Loading the notification settings`} /> : null}
      {query.isError ? <Alert tone="error">{t`The notification settings could not be loaded.`}</Alert> : null}
      {query.data
        ? NOTIFICATION_GROUPS.map((group) => {
            const settings = query.data.settings.filter((s) => s.group === group);
            if (settings.length === 0) return null;
            const title = i18n._(groupTitles[group]);
            return (
              <Card key={group} as="section" title={title}>
                <div className="notification-settings-group">
                  <p className="field-hint">{i18n._(groupHints[group])}</p>
                  {settings.map((s) => {
                    const channel = channelLabel(s);
                    const label = `${title}: ${channel}`;
                    return (
                      <Switch
                        key={s.identified}
                        name={s.identified}
                        label={channel}
                        checked={s.value}
                        disabled={s.locked || saving === s.identified}
                        hint={s.locked ? t`Always on: we must tell you about the security of your account.` : undefined}
                        onChange={(on) => void change(s, on, label)}
                      />
                    );
                  })}
                </div>
              </Card>
            );
          })
        : null}
    </div>
  );
}
