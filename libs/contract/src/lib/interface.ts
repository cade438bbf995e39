import { version } from '../../package.json';

/**
 * Version of the interface this contract describes: the package's, which `npm run release` writes (docs/releasing.md),
 * and from which the document's `info.version`, the client's user agent and the CLI's version follow.
 */
export const API_VERSION: string = version;

/** Path segment every operation lives under. */
export const API_PREFIX = '/v1';

/** Bounds of the `limit` query parameter of `listPets`. */
export const LIST_LIMIT = { min: 1, max: 100, default: 20 } as const;

/** Bounds of a pet's `name`, counted in Unicode code points. */
export const NAME_LENGTH = { min: 1, max: 100 } as const;

/**
 * Bounds of the opaque `cursor` of `listPets`, in characters. The service issues cursors of at most 26; anything
 * outside these bounds is refused as not one of them.
 */
export const CURSOR_LENGTH = { min: 1, max: 40 } as const;

/** Bounds of createPet's `Idempotency-Key` header, in visible ASCII characters. */
export const IDEMPOTENCY_KEY_LENGTH = { min: 1, max: 255 } as const;

/** Longest `message` of an Error, in characters; a longer one is cut short, ending in "…". */
export const ERROR_MESSAGE_MAX_LENGTH = 1000;

/** Largest identifier the service and client guarantee: ids beyond it cannot be represented exactly in JavaScript. */
export const MAX_ID = Number.MAX_SAFE_INTEGER;

/** `getPet` is deprecated: announced on this date (RFC 9745 `Deprecation`) ... */
export const GET_PET_DEPRECATED_AT = new Date('2026-01-01T00:00:00Z');

/** ... and removed on this date (RFC 8594 `Sunset`). Its successor is `listPets` with the `status` filter. */
export const GET_PET_SUNSET = new Date('2030-12-05T00:00:00Z');
