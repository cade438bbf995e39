import { MAX_ID, NAME_LENGTH } from './interface';
import type { FieldList } from './pet-field';
import { PET_STATUSES, PetStatus } from './pet-status';

/** An animal to add to the store; the service assigns its `id`. */
export interface NewPet {
  /** The animal's name: 1 to 100 Unicode code points with at least one non-whitespace character. */
  name: string;
  /** Identifier of the category the animal belongs to (1 to 2^53 - 1). */
  categoryId: number;
  /** Availability of the animal. @default PetStatus.Available */
  status?: PetStatus;
}

/** An animal as the service returns it. */
export interface Pet extends NewPet {
  /** Unique identifier assigned by the service; increasing and never reused. */
  id: number;
}

/**
 * Pet's fields, in the interface's order, each by its kind: the one place a field is described. The validation rules
 * and their words, the OpenAPI schema, the database columns, the response serialiser, the CLI's and the storefront's
 * columns and form fields, and the tests' model all follow from it (docs/architecture.md, "Where to change what").
 * A field of Pet missing here, or of the wrong kind, does not compile.
 */
export const PET_FIELDS: FieldList<Pet> = {
  id: {
    kind: 'integer',
    min: 1,
    max: MAX_ID,
    assigned: true,
    label: 'Id',
    description:
      'Unique identifier assigned by the service on creation; increasing, never reused. Ids are sequential integers ' +
      '(int64 by the interface), so they are not secret: access is governed by the API key, not by id secrecy.',
    example: 42,
  },
  name: {
    kind: 'text',
    minLength: NAME_LENGTH.min,
    maxLength: NAME_LENGTH.max,
    label: 'Name',
    description: "The animal's name: 1 to 100 Unicode characters, not only whitespace, stored exactly as sent.",
    example: 'Rex',
  },
  categoryId: {
    kind: 'integer',
    min: 1,
    max: MAX_ID,
    label: 'Category',
    description: 'Identifier of the category the animal belongs to.',
    example: 1,
  },
  status: {
    kind: 'choice',
    values: PET_STATUSES,
    enumName: 'PetStatus',
    default: PetStatus.Available,
    optional: true,
    label: 'Status',
    description: 'Availability of the animal; `available` when omitted.',
  },
};
