import { type FieldList, type FieldSpec, fieldEntries, ruleOf, sentFieldEntries } from '@petstore/contract';
import { type Command, Option } from 'commander';
import { checked, wholeNumber } from '../parsers';

// The pet's columns and `pets add`'s options follow from the contract's field list: a field is a column headed by its
// label in capitals and, unless the service assigns it, an option named by its label (`Birth date` → `--birth-date`).

const oneOf = (values: readonly string[]) => (values.length < 2 ? values.join('') : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`);

/** What the value must be, after the field's name, in `--help`. */
function helpOf(field: string, spec: FieldSpec): string {
  const name = spec.label.toLowerCase();
  switch (spec.kind) {
    case 'integer':
      return `${name}${field.endsWith('Id') ? ' id' : ''}: a whole number from ${spec.min}`;
    case 'text':
      return `${name}: ${spec.minLength} to ${spec.maxLength} characters, not only spaces`;
    case 'choice':
      return `${name}: ${oneOf(spec.values)}${spec.default === undefined ? '' : ` (the service defaults to ${spec.default})`}`;
    case 'date':
      return `${name}: a date written YYYY-MM-DD`;
  }
}

/** `--category <id>`: an identifier's placeholder says so; other fields' name what they hold, unless told `placeholder`. */
export function flagOf(field: string, spec: FieldSpec, placeholder?: string): string {
  const long = spec.label.toLowerCase().replace(/\s+/g, '-');
  placeholder ??= spec.kind === 'date' ? 'yyyy-mm-dd' : spec.kind === 'integer' && field.endsWith('Id') ? 'id' : long;
  return `--${long} <${placeholder}>`;
}

/**
 * What the CLI makes of a field list: `pets add`'s options, the record they describe, and the table's columns. Each
 * field of the list is a column; each field a client sends is an option, mandatory where the field is required.
 */
export function fieldOptionsOf<T>(fields: FieldList<T>) {
  const sent = sentFieldEntries(fields).map(([field, spec]) => ({ field, spec, option: new Option(flagOf(field, spec), helpOf(field, spec)) }));
  const columns = fieldEntries(fields);
  return {
    addOptions(command: Command): Command {
      for (const { spec, option } of sent) command.addOption(spec.optional ? option : option.makeOptionMandatory());
      return command;
    },
    /** The record the options describe, each value checked by its field's rule before anything is sent. */
    recordFrom(command: Command, options: Record<string, unknown>): Partial<T> {
      const record: Record<string, unknown> = {};
      for (const { field, spec, option } of sent) {
        const read = spec.kind === 'integer' ? wholeNumber : undefined;
        const value = checked(command, option.long ?? field, options[option.attributeName()] as string | undefined, ruleOf(spec), read);
        if (value !== undefined) record[field] = value;
      }
      return record as Partial<T>;
    },
    /** The table's header: each field's label in capitals. */
    header: columns.map(([, spec]) => spec.label.toUpperCase()),
    /** A record as a row of the table; a field it does not have is an empty cell. */
    row: (record: T): string[] => columns.map(([field]) => String(record[field] ?? '')),
  };
}
