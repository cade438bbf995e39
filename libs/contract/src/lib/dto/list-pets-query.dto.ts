import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, ValidateIf } from 'class-validator';
import { CURSOR_LENGTH, LIST_LIMIT, MAX_ID, NAME_LENGTH } from '../interface';
import { CATEGORY_FILTER_RULE, NAME_SEARCH_RULE } from '../pet-search';
import { PetStatus } from '../pet-status';
import { followsRule, IsListLimit, IsPetStatus } from './validators';

// Only plain base-10 digits become numbers; "1e1", "0x10", " 5" and "" stay strings and fail validation.
const toInteger = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : value;

const sent = (_: object, value: unknown) => value !== undefined;

/** Query parameters of `listPets`. */
export class ListPetsQueryDto {
  @ApiProperty({
    description: 'Maximum number of animals returned.',
    type: 'integer',
    format: 'int32',
    minimum: LIST_LIMIT.min,
    maximum: LIST_LIMIT.max,
    default: LIST_LIMIT.default,
    required: false,
  })
  @ValidateIf(sent)
  @Transform(toInteger)
  @IsListLimit()
  limit?: number;

  @ApiProperty({
    description: 'Return only animals with this status.',
    enum: PetStatus,
    enumName: 'PetStatus',
    required: false,
  })
  @ValidateIf(sent)
  @IsPetStatus()
  status?: PetStatus;

  @ApiProperty({
    description:
      'Return only animals whose name contains this text, ignoring case ("ÉLO" finds "Éloïse"; "strasse" finds ' +
      '"Straße"). Compatibility forms such as full-width letters match their plain letters; accents are kept. ' +
      '1 to 100 characters, not only whitespace, without control characters.',
    type: 'string',
    minLength: NAME_LENGTH.min,
    maxLength: NAME_LENGTH.max,
    required: false,
    // No example: "Try it out" would fill it in and filter a first look at the list.
  })
  @ValidateIf(sent)
  @followsRule(NAME_SEARCH_RULE)
  name?: string;

  @ApiProperty({
    description: 'Return only animals of this category.',
    type: 'integer',
    format: 'int64',
    minimum: 1,
    maximum: MAX_ID,
    required: false,
  })
  @ValidateIf(sent)
  @Transform(toInteger)
  @followsRule(CATEGORY_FILTER_RULE)
  categoryId?: number;

  @ApiProperty({
    description:
      'Opaque position of the next page, taken from the `Link: rel="next"` header of the previous one. It marks a ' +
      'place in id order, so it may be sent with other filters than the page that made it: the list goes on after it.',
    required: false,
    minLength: CURSOR_LENGTH.min,
    maxLength: CURSOR_LENGTH.max,
    pattern: '^[A-Za-z0-9_-]+$',
    // No example: Swagger UI's "Try it out" fills a parameter with its example, and would then ask for a page far on.
  })
  @ValidateIf(sent)
  @IsString({ message: 'cursor must be a single value taken from a Link header' })
  cursor?: string;
}
