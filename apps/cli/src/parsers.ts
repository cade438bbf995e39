import { InvalidArgumentError } from 'commander';

/**
 * Commander argument parser for ids, `--category` and `--limit`: a whole number from 1 that JavaScript holds exactly.
 * Further bounds (such as the largest page) are the service's to enforce, so they are not repeated here.
 */
export function parsePositiveInteger(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < 1 || !Number.isSafeInteger(number)) {
    throw new InvalidArgumentError('Expected a whole number from 1 to 9007199254740991.');
  }
  return number;
}

/** Commander argument parser for the service address: an absolute http(s) URL. */
export function parseServiceUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('Expected an absolute URL such as http://localhost:3000/v1.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError('Expected an http or https URL.');
  return value;
}
