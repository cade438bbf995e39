/* eslint-disable @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-interface, @typescript-eslint/no-empty-object-type --
   the class carries the decorators Nest reads, its filters are PetFilters (declared once, in pet-filters.ts) */
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, ValidateIf } from 'class-validator';
import { CURSOR_LENGTH, LIST_LIMIT } from '../interface';
import { filterEntries, filterFieldOf, type PetFilters } from '../pet-filters';
import { filterProperty } from './field-properties';
import { followsRule, IsListLimit } from './validators';

// Only plain base-10 digits become numbers; "1e1", "0x10", " 5" and "" stay strings and fail validation.
const toInteger = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : value;

const sent = (_: object, value: unknown) => value !== undefined;

export interface ListPetsQueryDto extends PetFilters {}

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

  /** Decorated below, after the filters: the document lists the parameters in the order they were decorated. */
  declare cursor?: string;
}

for (const [filter, spec] of filterEntries()) {
  const decorators = [ApiProperty(filterProperty(spec)), ValidateIf(sent), followsRule(spec.rule)];
  if (filterFieldOf(spec).kind === 'integer') decorators.push(Transform(toInteger));
  for (const decorate of decorators) decorate(ListPetsQueryDto.prototype, filter);
}

const cursorDecorators = [
  ApiProperty({
    description:
      'Opaque position of the next page, taken from the `Link: rel="next"` header of the previous one. It marks a ' +
      'place in id order, so it may be sent with other filters than the page that made it: the list goes on after it.',
    required: false,
    // Said outright: a property decorated outside the class has no type for the document to reflect.
    type: 'string',
    minLength: CURSOR_LENGTH.min,
    maxLength: CURSOR_LENGTH.max,
    pattern: '^[A-Za-z0-9_-]+$',
    // No example: Swagger UI's "Try it out" fills a parameter with its example, and would then ask for a page far on.
  }),
  ValidateIf(sent),
  IsString({ message: 'cursor must be a single value taken from a Link header' }),
];
for (const decorate of cursorDecorators) decorate(ListPetsQueryDto.prototype, 'cursor');
