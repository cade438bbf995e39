import { passesFilters, type Pet, PetStatus } from '@petstore/contract';
import { changedFilters, filtersInUrl, urlWithFilters } from './list-filters';

describe(filtersInUrl.name, () => {
  it.each([
    ['?status=sold', { status: 'sold' }],
    ['?limit=5&status=pending&name=Mr%20Rex&categoryId=3', { status: 'pending', name: 'Mr Rex', categoryId: 3 }],
    ['?name=%C3%89lo&categoryId=007', { name: 'Élo', categoryId: 7 }],
    ['', {}],
    ['?status=Sold&name=&categoryId=0', {}],
    ['?status=lost&name=%20%20&categoryId=x', {}],
    [`?name=${'x'.repeat(101)}&categoryId=9007199254740992`, {}],
    ['?name=a%09b', {}],
  ])('reads %j as %j, leaving out what the service would refuse', (search, filters) => expect(filtersInUrl(search)).toEqual(filters));
});

describe(urlWithFilters.name, () => {
  const at = (search: string, hash = '') => ({ pathname: '/storefront/', search, hash });
  it('sets, replaces and removes each filter, keeping the rest of the address', () => {
    expect(urlWithFilters({ status: PetStatus.Sold }, at(''))).toBe('/storefront/?status=sold');
    expect(urlWithFilters({ status: PetStatus.Pending }, at('?status=sold&x=1', '#pets'))).toBe('/storefront/?status=pending&x=1#pets');
    expect(urlWithFilters({}, at('?status=sold&name=rex&categoryId=2'))).toBe('/storefront/');
    expect(urlWithFilters({ name: 'Mr Rex+1', categoryId: 3 }, at('?status=sold'))).toBe('/storefront/?name=Mr%20Rex%2B1&categoryId=3');
  });

  it('writes what it reads', () => {
    const filters = { status: PetStatus.Available, name: 'Zoë & co', categoryId: 12 };
    expect(filtersInUrl(urlWithFilters(filters, at('')).split('?')[1])).toEqual(filters);
  });
});

describe(changedFilters.name, () => {
  it('sets the filters a change names, drops those it names as undefined, and keeps the others', () => {
    const filters = { status: PetStatus.Sold, name: 'rex', categoryId: 2 };
    expect(changedFilters(filters, { name: undefined, categoryId: 3 })).toStrictEqual({ status: PetStatus.Sold, categoryId: 3 });
    expect(changedFilters(filters, { status: undefined })).toStrictEqual({ name: 'rex', categoryId: 2 });
    expect(changedFilters(filters, {})).toStrictEqual(filters);
  });
});

describe(passesFilters.name, () => {
  const pet: Pet = { id: 1, name: 'Éloïse', categoryId: 3, status: PetStatus.Sold };
  it('compares names as the service does, and every filter given', () => {
    expect(passesFilters(pet, {})).toBe(true);
    expect(passesFilters(pet, { name: 'ÉLO', categoryId: 3, status: PetStatus.Sold })).toBe(true);
    expect(passesFilters(pet, { name: 'elo' })).toBe(false);
    expect(passesFilters(pet, { categoryId: 4 })).toBe(false);
    expect(passesFilters(pet, { status: PetStatus.Available })).toBe(false);
  });
});
