import { fieldEntries, type Pet, PET_FIELDS, PET_STATUSES, type PetStatus } from '@petstore/contract';
import { useId } from 'react';
import { Alert, ChoiceOptions } from './controls';
import { describeError } from './describe-error';
import type { ListFilters } from './list-filters';
import { SearchFields } from './search-fields';
import type { PetList } from './use-pet-list';

interface Props {
  list: PetList;
  filters: ListFilters;
  onFiltersChange(filters: ListFilters): void;
}

const COLUMNS = fieldEntries(PET_FIELDS);

/** The field that names a pet, its first text: on a narrow screen it heads the pet's block, unlabelled (styles.css). */
const TITLE = COLUMNS.find(([, spec]) => spec.kind === 'text')?.[0];

function summary({ pets, more, loading, error }: PetList, { status, name, categoryId }: ListFilters): string {
  if (loading) return 'Loading pets…';
  if (error !== undefined) return '';
  if (pets.length === 0) {
    if (name !== undefined || categoryId !== undefined) return 'No pets match.';
    return status ? `No ${status} pets.` : 'No pets yet.';
  }
  const count = `${pets.length} ${pets.length === 1 ? 'pet' : 'pets'}`;
  return more ? `${count} shown; there are more.` : `${count}, all shown.`;
}

/** The pets, found by name and filtered by category and status, a page at a time. */
export function PetsSection({ list, filters, onFiltersChange }: Props) {
  const id = useId();
  return (
    <section aria-labelledby={`${id}-heading`} className="panel pets">
      <h2 id={`${id}-heading`}>Pets</h2>
      <SearchFields filters={filters} onChange={onFiltersChange} />
      <div className="field inline">
        <label htmlFor={`${id}-status`}>Filter by status</label>
        <select
          id={`${id}-status`}
          value={filters.status ?? ''}
          onChange={(event) => onFiltersChange({ ...filters, status: event.target.value === '' ? undefined : (event.target.value as PetStatus) })}
        >
          <option value="">all</option>
          <ChoiceOptions values={PET_STATUSES} />
        </select>
      </div>
      <Alert>{list.error !== undefined && describeError(list.error)}</Alert>
      <div className="table-frame">
        <table aria-busy={list.loading} aria-describedby={`${id}-summary`}>
          <thead>
            <tr>
              {COLUMNS.map(([field, spec]) => (
                <th key={field} scope="col">
                  {spec.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {list.pets.map((pet) => (
              // data-label: each cell's column, shown beside it where a narrow screen stacks the row (styles.css).
              <tr key={pet.id}>
                {COLUMNS.map(([field, spec]) =>
                  field === TITLE ? (
                    <td key={field} className="name">
                      {pet[field as keyof Pet]}
                    </td>
                  ) : (
                    <td key={field} data-label={spec.label}>
                      {pet[field as keyof Pet]}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p id={`${id}-summary`} role="status" className="note">
        {summary(list, filters)}
      </p>
      {list.more && (
        <button type="button" onClick={list.loadMore} disabled={list.loading}>
          Load more
        </button>
      )}
    </section>
  );
}
