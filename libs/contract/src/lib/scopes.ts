/** What an API key may do. A key holds one or both; keys from `API_KEYS` hold both. */
export const SCOPES = ['pets:read', 'pets:write'] as const;

/** One of the scopes a key can hold. */
export type Scope = (typeof SCOPES)[number];

/** The scope each operation needs, by its operationId. */
export const OPERATION_SCOPES = {
  listPets: 'pets:read',
  getPet: 'pets:read',
  createPet: 'pets:write',
  streamEvents: 'pets:read',
} as const satisfies Record<string, Scope>;

/** The contract's operations, as its OpenAPI document names them. */
export type OperationId = keyof typeof OPERATION_SCOPES;
