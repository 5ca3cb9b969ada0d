/** Addresses (addressInquiry): each with its status and uploaded documents; new, change (machines/address-edit), delete. */
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import type { Address } from '../../../api/profile.ts';
import type { AddressValues } from '../../../machines/address-edit/address-edit.rules.ts';
import { callMethod } from '../../lib/request.ts';
import { Button } from '../../ui/button.tsx';
import { AddressEditFlow } from './address-edit-flow.tsx';
import { accountsQuery } from '../../lib/accounts-query.ts';
import { DocumentList } from './document-list.tsx';
import { useAddressStatusNames, useAddressTypeNames } from './messages.ts';
import { addressesQuery, invalidateAfterChange } from './queries.ts';
import { ChangeError, Loaded, ProfileSection } from './section.tsx';
import { useChange } from './use-change.ts';

const valuesOf = (a: Address | null, residenceCountryCode: string | null): AddressValues =>
  a
    ? { addressType: a.addressType, address1: a.address1, address2: a.address2, city: a.city, postalCode: a.postalCode, countryCode: a.countryCode, stateName: a.stateName ?? '' }
    : { addressType: 'home', address1: '', address2: '', city: '', postalCode: '', countryCode: residenceCountryCode ?? '', stateName: '' };

export function AddressesSection({
  acting,
  today,
  residenceCountryCode,
  countries,
}: {
  acting: number | null;
  today: string;
  residenceCountryCode: string | null;
  countries: readonly { code: string; name: string }[];
}) {
  const { t } = useLingui();
  const client = useQueryClient();
  const query = useQuery(addressesQuery(acting));
  const statusNames = useAddressStatusNames();
  const typeNames = useAddressTypeNames();
  const [editing, setEditing] = useState<{ address: Address | null } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const remove = useChange((vars: { addressId: number }) => callMethod('customerAddressDelete', { id: vars.addressId }), () => setNotice(t`The address was deleted.`));
  // confirmAddress (document 1 §7 "confirm address"): the customer says the address is still correct.
  // The answer is announced and the list read again (useChange); a refusal shows the platform's words.
  // The button stays on an address whose documents are not confirmed (`confirmed` is the documents'
  // verdict; the contract does not report when the customer last confirmed it), so the customer
  // can confirm again whenever asked.
  const confirm = useChange(
    (vars: { addressId: number; address1: string }) => callMethod('confirmAddress', { addressId: vars.addressId }),
    ({ address }) => {
      const street = address.address1;
      setNotice(t`You confirmed that ${street} is still your address.`);
    },
  );
  const countryName = (code: string) => countries.find((c) => c.code === code)?.name ?? code;
  return (
    <ProfileSection id="address" title={t`Addresses`}>
      <Loaded query={query}>
        {(addresses) => (
          <>
            {addresses.length === 0 ? <p>{t`You have no address on file. Add the address you live at.`}</p> : null}
            <ul className="profile-list">
              {addresses.map((a) => (
                <li key={a.addressId}>
                  <p className="profile-item-main">
                    {typeNames[a.addressType]}: {[a.address1, a.address2, `${a.postalCode} ${a.city}`, a.stateName ?? '', countryName(a.countryCode)].filter((x) => x.trim() !== '').join(', ')}
                  </p>
                  <p>
                    {t`Status`}: <strong>{statusNames[a.status]}</strong>
                  </p>
                  {a.isDocumentRequired ? <p className="profile-warning">{a.isDocumentOutOfDate ? t`The proof of this address is out of date: upload a new one.` : t`Upload a proof of this address.`}</p> : null}
                  {a.isCardDocumentRequired ? <p className="profile-warning">{t`Your card needs one more proof of this address.`}</p> : null}
                  {a.uploadedDocuments.length > 0 ? <DocumentList documents={a.uploadedDocuments} label={t`Documents of this address`} /> : null}
                  <div className="actions">
                    <Button
                      variant="secondary"
                      onClick={() => {
                        setNotice(null);
                        setEditing({ address: a });
                      }}
                      aria-label={`${t`Change or add documents`}: ${a.address1}`}
                    >
                      {t`Change or add documents`}
                    </Button>
                    {/* offered until the customer has confirmed it (the provider's own confirmation: `confirmed`) */}
                    {!a.confirmed && a.customerConfirmedAt === null ? (
                      <Button
                        variant="secondary"
                        busy={confirm.busy}
                        onClick={() => {
                          setNotice(null);
                          remove.reset();
                          confirm.run({ addressId: a.addressId, address1: a.address1 });
                        }}
                        aria-label={`${t`Confirm this address`}: ${a.address1}`}
                      >
                        {t`Confirm this address`}
                      </Button>
                    ) : null}
                    <Button variant="secondary" busy={remove.busy} onClick={() => remove.run({ addressId: a.addressId })} aria-label={t`Delete the address ${a.address1}`}>
                      {t`Delete`}
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
            <ChangeError text={remove.errorText} />
            <ChangeError text={confirm.errorText} />
            {notice ? <p role="status">{notice}</p> : null}
            {editing ? (
              <AddressEditFlow
                key={editing.address?.addressId ?? 'new'}
                input={{ addressId: editing.address?.addressId ?? null, values: valuesOf(editing.address, residenceCountryCode), today }}
                countries={countries}
                actingCustomerId={acting}
                onFinished={(saved) => {
                  setEditing(null);
                  if (saved) {
                    setNotice(t`The address was saved. We will check its documents.`);
                    void invalidateAfterChange(client);
                    // a replacement may have canceled cards (their balances returned)
                    void client.invalidateQueries({ queryKey: accountsQuery(acting).queryKey });
                  }
                }}
              />
            ) : (
              <div className="actions">
                <Button
                  variant="secondary"
                  onClick={() => {
                    setNotice(null);
                    setEditing({ address: null });
                  }}
                >
                  {t`Add an address`}
                </Button>
              </div>
            )}
          </>
        )}
      </Loaded>
    </ProfileSection>
  );
}
