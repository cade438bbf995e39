import { API_PREFIX, GET_PET_DEPRECATED_AT, GET_PET_SUNSET } from '@petstore/contract';

/** Sent on every response of the deprecated `getPet`, errors included. */
export const GET_PET_HEADERS = {
  // RFC 9745: a structured-field date, seconds since the epoch.
  deprecation: `@${Math.floor(GET_PET_DEPRECATED_AT.getTime() / 1000)}`,
  // RFC 8594: an HTTP-date.
  sunset: GET_PET_SUNSET.toUTCString(),
  link: `<${API_PREFIX}/pets>; rel="successor-version"`,
} as const;
