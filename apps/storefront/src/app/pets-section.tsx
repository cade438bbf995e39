import { fieldEntries, filterEntries, filterFieldOf, type Pet, PET_FIELDS, type PetFilters } from '@petstore/contract';
import { useId, useState } from 'react';
import { Alert, ChoiceOptions } from './controls';
import { describeError } from './describe-error';
import { filterLabel, isChoice } from './list-filters';
import { LiveNews } from './live-news';
import { SearchFields } from './search-fields';
import type { Following } from './use-live-pets';
import type { PetList } from './use-pet-list';

interface Props {
  list: PetList;
  following: Following;
  filters: PetFilters;
  /** Only the filters the person changed, each with its value (undefined: none), to be made to the latest filters. */
  onFiltersChange(change: PetFilters): void;
}

const COLUMNS = fieldEntries(PET_FIELDS);

/** The field that names a pet, its first text: on a narrow screen it heads the pet's block, unlabelled (styles.css). */
const TITLE = COLUMNS.find(([, spec]) => spec.kind === 'text')?.[0];

/** The filters chosen among their field's values, each in a select; the others are typed (SearchFields). */
const CHOICES = filterEntries().flatMap(([filter, spec]) => {
  const field = filterFieldOf(spec);
  return field.kind === 'choice' ? [{ filter, spec, values: field.values }] : [];
});

/** Focuses a row as it gets this ref: the first new pet, once the notice has listed it (focus() scrolls it into view). */
const focusRow = (row: HTMLTableRowElement | null) => row?.focus();

function summary({ pets, more, loading, error }: PetList, filters: PetFilters): string {
  if (loading) return 'Loading pets…';
  if (error !== undefined) return '';
  if (pets.length === 0) {
    const given = filterEntries().filter(([filter]) => filters[filter] !== undefined);
    if (given.length === 0) return 'No pets yet.';
    // One value chosen names the pets ("No sold pets."); anything typed, or more than one choice, does not.
    const [[filter, spec]] = given;
    return given.length === 1 && isChoice(spec) ? `No ${filters[filter]} pets.` : 'No pets match.';
  }
  const count = `${pets.length} ${pets.length === 1 ? 'pet' : 'pets'}`;
  return more ? `${count} shown; there are more.` : `${count}, all shown.`;
}

/** The pets, a page at a time, with a control per filter of the contract's (PET_FILTERS). */
export function PetsSection({ list, following, filters, onFiltersChange }: Props) {
  const id = useId();
  // The pet the notice of new pets took the person to: its row may hold focus (tabIndex -1), for them to read on from.
  const [reached, setReached] = useState<number>();
  return (
    <section aria-labelledby={`${id}-heading`} className="panel pets">
      <h2 id={`${id}-heading`}>Pets</h2>
      <SearchFields filters={filters} onChange={onFiltersChange} />
      {CHOICES.map(({ filter, spec, values }) => (
        <div key={filter} className="field inline">
          <label htmlFor={`${id}-${filter}`}>{filterLabel(spec)}</label>
          <select
            id={`${id}-${filter}`}
            value={filters[filter] ?? ''}
            onChange={(event) => onFiltersChange({ [filter]: event.target.value === '' ? undefined : event.target.value })}
          >
            <option value="">all</option>
            <ChoiceOptions values={values} />
          </select>
        </div>
      ))}
      <Alert>{list.error !== undefined && describeError(list.error)}</Alert>
      <LiveNews list={list} following={following} onShown={(first) => setReached(first.id)} />
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
              <tr key={pet.id} tabIndex={pet.id === reached ? -1 : undefined} ref={pet.id === reached ? focusRow : undefined}>
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
