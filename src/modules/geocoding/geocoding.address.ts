// An address as geocoding reads it: the fields of a location (or an AI import item), the one-line
// query a geocoder is asked, and the cache key that makes two spellings of one address one entry
// (docs/api.md, Geocoding).

export interface AddressFields {
  address: string | null;
  zip: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
}

/** The one-line address a geocoder is asked for: street, zip and city, state, country. */
export function addressQuery(fields: AddressFields): string {
  const locality = [fields.zip, fields.city].filter(Boolean).join(' ');
  return [fields.address, locality, fields.state, fields.country].filter(Boolean).join(', ');
}

/**
 * One field as the key holds it: NFKC, lower case, every run of punctuation, symbols and
 * whitespace one space, trimmed. "Main St." and "main   st" meet; "St 12" and "St 1 2" do not
 * (digits keep their separation).
 */
const keyPart = (value: string | null) =>
  (value ?? '')
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}\s]+/gu, ' ')
    .trim();

/** The cache key: the normalised fields in a fixed order (street, zip, city, state, country). */
export function addressKey(fields: AddressFields): string {
  return [fields.address, fields.zip, fields.city, fields.state, fields.country].map(keyPart).join('|');
}
