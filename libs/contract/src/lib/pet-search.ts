import { MAX_ID, NAME_LENGTH } from './interface';
import { type FieldRule, textRule, wholeNumberRule } from './new-pet-rules';

// listPets' two filters beside `status`: `name`, a case-insensitive substring of the pet's name, and `categoryId`.
// Their rules are the document's and the service's (dto/list-pets-query.dto.ts), and a client's or the CLI's before
// sending; the key is how the service compares names (docs/api.md, "Finding pets by name").

/**
 * A name as the search compares it: NFKC (full-width letters, ligatures and other compatibility forms as their plain
 * letters), then full case folding (upper-cased, then lower-cased: "Straße" and "STRASSE" both become "strasse"), and
 * the final sigma as the sigma it is (lower-casing writes "ς" where a word ends, which a piece of a word does where
 * the whole word goes on: "ὈΔΥΣ" is "ὀδυσ", as in "ὀδυσσευσ"). `name` matches a pet when its key is a substring of the
 * pet's name's key. Accents stay: "élo" finds "Éloïse", "elo" does not.
 */
export const nameSearchKey = (text: string): string => text.normalize('NFKC').toUpperCase().toLowerCase().replaceAll('ς', 'σ');

/** listPets' `name`: 1 to 100 characters, as a name is, not only whitespace, with no control character. */
export const NAME_SEARCH_RULE: FieldRule = textRule(NAME_LENGTH.min, NAME_LENGTH.max, { noControlCharacters: true });

/** listPets' `categoryId`: a whole number from 1 to 2^53 - 1, written in base 10 in the query. */
export const CATEGORY_FILTER_RULE: FieldRule = wholeNumberRule(1, MAX_ID, { jsonNumber: false });
