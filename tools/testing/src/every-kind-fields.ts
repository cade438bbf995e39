import type { FieldList } from '@petstore/contract';

/** A record with a field of every kind the contract knows, the kinds Pet does not use yet included. */
export interface EveryKind {
  id: number;
  nickName: string;
  ownerId: number;
  size?: 'small' | 'large';
  bornOn?: string;
}

/**
 * Its field list, an entry of its own (`@petstore/testing/every-kind`) that a browser's tests can load without the rest
 * of the helpers' Node modules: the specs of each consumer of the contract's field lists (the service's rows, the CLI's options, the
 * storefront's inputs) try every kind with it, so that a kind works before a real field uses it.
 */
export const EVERY_KIND_FIELDS: FieldList<EveryKind> = {
  id: { kind: 'integer', min: 1, max: Number.MAX_SAFE_INTEGER, assigned: true, label: 'Id', description: 'id' },
  nickName: { kind: 'text', minLength: 1, maxLength: 10, label: 'Nick name', description: 'nick name' },
  ownerId: { kind: 'integer', min: 1, max: 99, label: 'Owner', description: 'owner' },
  size: { kind: 'choice', values: ['small', 'large'], enumName: 'Size', default: 'small', optional: true, label: 'Size', description: 'size' },
  bornOn: { kind: 'date', optional: true, label: 'Born on', description: 'birthday' },
};
