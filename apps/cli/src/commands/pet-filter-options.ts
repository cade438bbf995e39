import { filterEntries, filterFieldOf, type PetFilters } from '@petstore/contract';
import { type Command, Option } from 'commander';
import { checked, wholeNumber } from '../parsers';
import { flagOf } from './pet-field-options';

// `pets list`'s filters follow from the contract's PET_FILTERS: each an option named by its field's label, as `pets
// add`'s are (`--category <id>`), a text searched for as `<text>`.

const FILTERS = filterEntries().map(([filter, spec]) => {
  const field = filterFieldOf(spec);
  const help = field.kind === 'choice' ? `${spec.hint}: ${field.values.join(', ')}` : spec.hint;
  return { filter, spec, option: new Option(flagOf(spec.field, field, spec.match === 'contains' ? 'text' : undefined), help) };
});

/** Adds an option per listPets filter to `command`. */
export function addFilterOptions(command: Command): Command {
  for (const { option } of FILTERS) command.addOption(option);
  return command;
}

/** The filters the options give, each checked by its rule before anything is sent. */
export function filtersFrom(command: Command, options: Record<string, unknown>): PetFilters {
  const filters: Record<string, unknown> = {};
  for (const { filter, spec, option } of FILTERS) {
    const read = filterFieldOf(spec).kind === 'integer' ? wholeNumber : undefined;
    const value = checked(command, option.long ?? filter, options[option.attributeName()] as string | undefined, spec.rule, read);
    if (value !== undefined) filters[filter] = value;
  }
  return filters as PetFilters;
}
