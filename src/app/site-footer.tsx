import { useLingui } from '@lingui/react/macro';
import { activeVariant } from '../../variants/index.ts';
import { formatSupportHours } from '../../variants/support-hours.ts';

/** Support contact and legal links of the variant. */
export function SiteFooter() {
  const { t, i18n } = useLingui();
  const { support, links, letter } = activeVariant;
  return (
    <footer className="app-footer">
      <p>
        {t`Support`}: <a href={`mailto:${support.email}`}>{support.email}</a> · <a href={`tel:${support.phone.replace(/\s/g, '')}`}>{support.phone}</a> · {formatSupportHours(support.hours, i18n.locale)}
      </p>
      <p>
        <a href={links.termsUrl} rel="noopener noreferrer" target="_blank">{t`Terms and conditions`}</a> ·{' '}
        <a href={links.privacyUrl} rel="noopener noreferrer" target="_blank">{t`Privacy policy`}</a> · {letter.legalName}
      </p>
    </footer>
  );
}
