import { type FilterSpec, type PetFilters, PetStatus } from '@petstore/contract';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { filtersInUrl, urlWithFilters } from './list-filters';
import { PetsSection } from './pets-section';
import type { PetList } from './use-pet-list';

// The contract with a filter on a field of each kind Pet's filters do not all use (EVERY_KIND_FIELDS) after three of its own:
// the page must read, write and offer them with no edit of its own, as it would a filter added to PET_FILTERS.
jest.mock('@petstore/contract', () => {
  const contract = jest.requireActual<typeof import('@petstore/contract')>('@petstore/contract');
  const { EVERY_KIND_FIELDS } = jest.requireActual<typeof import('@petstore/testing/every-kind')>('@petstore/testing/every-kind');
  const fields: Record<string, import('@petstore/contract').FieldSpec> = { ...EVERY_KIND_FIELDS, ...contract.PET_FIELDS };
  const equals = (field: string) => ({ field, match: 'equals', rule: contract.ruleOf(fields[field]), description: field, hint: field });
  // Today's three by name, so that a filter added to the contract leaves this page's expectations as they are.
  const { status, name, categoryId } = contract.PET_FILTERS;
  const filters = { status, name, categoryId, nickName: equals('nickName'), size: equals('size'), ownerId: equals('ownerId'), bornOn: equals('bornOn') };
  const filterEntries = () => Object.entries(filters);
  return {
    ...contract,
    PET_FILTERS: filters,
    filterEntries,
    filterFieldOf: (spec: FilterSpec) => fields[spec.field],
    // The contract's comparison, over these filters.
    sameFilters: (a: Record<string, unknown>, b: Record<string, unknown>) => filterEntries().every(([filter]) => a[filter] === b[filter]),
  };
});

/** Filters the contract's type does not know of: the added ones. */
const added = (filters: Record<string, unknown>) => filters as PetFilters;

describe('a filter added to PET_FILTERS', () => {
  const at = (search: string) => ({ pathname: '/storefront/', search, hash: '' });

  it('is read from and written to the address, in the contract order, held to its rule', () => {
    const every = added({ status: PetStatus.Sold, name: 'Mr Rex', categoryId: 3, nickName: 'Bo', size: 'large', ownerId: 7, bornOn: '2024-02-29' });
    expect(urlWithFilters(every, at('?x=1'))).toBe('/storefront/?x=1&status=sold&name=Mr%20Rex&categoryId=3&nickName=Bo&size=large&ownerId=7&bornOn=2024-02-29');
    expect(filtersInUrl('?bornOn=2024-02-29&ownerId=07&size=large&nickName=Bo&categoryId=3&name=Mr%20Rex&status=sold')).toEqual(every);
    expect(filtersInUrl('?nickName=far%20too%20long&size=huge&ownerId=100&bornOn=2024-02-30')).toEqual({});
    expect(urlWithFilters({}, at('?size=large&ownerId=7&x=1'))).toBe('/storefront/?x=1');
  });

  describe('in the list', () => {
    const list: PetList = { pets: [], more: false, loading: false, answered: true, waiting: [], loadMore: jest.fn(), added: jest.fn(), arrived: jest.fn(), showWaiting: jest.fn(), reload: jest.fn(), streamStarted: jest.fn() };
    const show = (filters: PetFilters, onFiltersChange = jest.fn()) =>
      render(<PetsSection list={list} following={{ kind: 'quiet' }} filters={filters} onFiltersChange={onFiltersChange} />);

    it('is a box when typed, a select of its values when a choice, each labelled by its field', () => {
      const { container } = show({});
      expect(Array.from(container.querySelectorAll('.search label'), (label) => label.textContent)).toEqual([
        'Search by name',
        'Filter by category',
        'Filter by nick name',
        'Filter by owner',
        'Filter by born on',
      ]);
      expect(Array.from(container.querySelectorAll('select'), (select) => select.labels[0].textContent)).toEqual(['Filter by status', 'Filter by size']);
      const input = (label: string) => screen.getByLabelText(label);
      expect([input('Filter by nick name'), input('Filter by owner'), input('Filter by born on')].map((box) => [box.getAttribute('type'), box.inputMode])).toEqual([
        [null, ''],
        [null, 'numeric'],
        ['date', ''],
      ]);
      expect(Array.from(container.querySelectorAll('select')[1].options, (option) => [option.value, option.text])).toEqual([
        ['', 'all'],
        ['small', 'small'],
        ['large', 'large'],
      ]);
    });

    it('sends what is typed or chosen in it, once the service would take it', async () => {
      const onFiltersChange = jest.fn();
      show({ status: PetStatus.Sold }, onFiltersChange);
      fireEvent.change(screen.getByLabelText('Filter by owner'), { target: { value: '100' } });
      expect(await screen.findByText('The owner number is too large.')).toBeTruthy();
      fireEvent.change(screen.getByLabelText('Filter by owner'), { target: { value: '7' } });
      fireEvent.change(screen.getByLabelText('Filter by nick name'), { target: { value: 'Bo' } });
      // Each control says only what it changes: the boxes every typed filter (the blank ones as none), a select its own.
      await waitFor(() => expect(onFiltersChange).toHaveBeenCalledTimes(1));
      expect(onFiltersChange.mock.calls[0]).toStrictEqual([{ name: undefined, categoryId: undefined, nickName: 'Bo', ownerId: 7, bornOn: undefined }]);
      fireEvent.change(screen.getByLabelText('Filter by size'), { target: { value: 'large' } });
      expect(onFiltersChange).toHaveBeenLastCalledWith({ size: 'large' });
      fireEvent.change(screen.getByLabelText('Filter by status'), { target: { value: '' } });
      expect(onFiltersChange.mock.calls.at(-1)).toStrictEqual([{ status: undefined }]);
    });

    it.each([
      [added({ size: 'large' }), 'No large pets.'],
      [added({ nickName: 'Bo' }), 'No pets match.'],
      [added({ size: 'large', status: PetStatus.Sold }), 'No pets match.'],
    ])('says why the list is empty with %j', (filters, words) => {
      show(filters);
      expect(screen.getByRole('status').textContent).toBe(words);
    });
  });
});
