// Decorator-free entry point: safe to import at run time from any client, browser included.
export { PetStatus, PET_STATUSES } from './lib/pet-status';
export type { Pet, NewPet } from './lib/pet';
export { PET_FIELDS } from './lib/pet';
export { fieldEntries, sentFieldEntries, withDefaults } from './lib/pet-field';
export type { FieldKind, FieldKindOf, FieldList, FieldOptionality, FieldSpec } from './lib/pet-field';
export { ERROR_CODES } from './lib/error-body';
export type { ErrorBody, ErrorCode } from './lib/error-body';
export { OPERATION_SCOPES, SCOPES } from './lib/scopes';
export { PET_EVENT_TYPES } from './lib/pet-event';
export type { PetEvent, PetEventType } from './lib/pet-event';
export {
  codePointLength,
  describeProblem,
  fieldProblems,
  isPetName,
  isPetStatus,
  isSafeId,
  LIST_LIMIT_RULE,
  newPetFieldProblems,
  newPetProblems,
  PET_NAME_RULE,
  PET_STATUS_RULE,
  ruleOf,
  SAFE_ID_RULE,
} from './lib/new-pet-rules';
export type { FieldProblem, FieldRule, NewPetFieldProblems, NewPetProblems } from './lib/new-pet-rules';
export { CURSOR_RULE, EVENT_POSITION_RULE, IDEMPOTENCY_KEY_RULE } from './lib/request-rules';
export { CATEGORY_FILTER_RULE, NAME_SEARCH_RULE, nameSearchKey } from './lib/pet-search';
export { filterEntries, filterFieldOf, filtersIn, PET_FILTERS, passesFilters, sameFilters } from './lib/pet-filters';
export type { FilterSpec, PetFilterName, PetFilters } from './lib/pet-filters';
export type { OperationId, Scope } from './lib/scopes';
export {
  API_PREFIX,
  API_VERSION,
  CURSOR_LENGTH,
  ERROR_MESSAGE_MAX_LENGTH,
  GET_PET_DEPRECATED_AT,
  GET_PET_SUNSET,
  IDEMPOTENCY_KEY_LENGTH,
  LIST_LIMIT,
  MAX_ID,
  NAME_LENGTH,
} from './lib/interface';
