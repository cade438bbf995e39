import { PetStatus } from '@petstore/contract';
import { statusInUrl, urlWithStatus } from './status-filter';

describe(statusInUrl.name, () => {
  it.each([
    ['?status=sold', 'sold'],
    ['?limit=5&status=pending', 'pending'],
    ['', undefined],
    ['?status=Sold', undefined],
    ['?status=lost', undefined],
  ])('reads %j as %j', (search, status) => expect(statusInUrl(search)).toBe(status));
});

describe(urlWithStatus.name, () => {
  const at = (search: string, hash = '') => ({ pathname: '/storefront/', search, hash });
  it('sets, replaces and removes the filter, keeping the rest of the address', () => {
    expect(urlWithStatus(PetStatus.Sold, at(''))).toBe('/storefront/?status=sold');
    expect(urlWithStatus(PetStatus.Pending, at('?status=sold&x=1', '#pets'))).toBe('/storefront/?status=pending&x=1#pets');
    expect(urlWithStatus(undefined, at('?status=sold'))).toBe('/storefront/');
  });
});
