import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, ValidateIf } from 'class-validator';
import { CURSOR_LENGTH, LIST_LIMIT } from '../interface';
import { PetStatus } from '../pet-status';
import { IsListLimit, IsPetStatus } from './validators';

// Only plain base-10 digits become numbers; "1e1", "0x10", " 5" and "" stay strings and fail validation.
const toInteger = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : value;

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
  @ValidateIf((_, value) => value !== undefined)
  @Transform(toInteger)
  @IsListLimit()
  limit?: number;

  @ApiProperty({
    description: 'Return only animals with this status.',
    enum: PetStatus,
    enumName: 'PetStatus',
    required: false,
  })
  @ValidateIf((_, value) => value !== undefined)
  @IsPetStatus()
  status?: PetStatus;

  @ApiProperty({
    description: 'Opaque position of the next page, taken from the `Link: rel="next"` header of the previous one.',
    required: false,
    minLength: CURSOR_LENGTH.min,
    maxLength: CURSOR_LENGTH.max,
    pattern: '^[A-Za-z0-9_-]+$',
    // No example: Swagger UI's "Try it out" fills a parameter with its example, and would then ask for a page far on.
  })
  @ValidateIf((_, value) => value !== undefined)
  @IsString({ message: 'cursor must be a single value taken from a Link header' })
  cursor?: string;
}
