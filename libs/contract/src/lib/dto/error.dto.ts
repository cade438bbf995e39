import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ERROR_CODES, type ErrorBody, type ErrorCode } from '../error-body';
import { ERROR_MESSAGE_MAX_LENGTH } from '../interface';

const codeList = Object.entries(ERROR_CODES)
  .map(([code, status]) => `\`${code}\` (${status})`)
  .join(', ');

// Named ErrorDto so it never shadows the global Error; published as the `Error` schema of the interface.
@ApiSchema({ name: 'Error', description: 'The body of every error response.' })
export class ErrorDto implements ErrorBody {
  @ApiProperty({
    description: `Machine-readable error code, one of: ${codeList}.`,
    enum: Object.keys(ERROR_CODES),
    enumName: 'ErrorCode',
    example: 'validation_failed',
  })
  code!: ErrorCode;

  @ApiProperty({
    description: `What is wrong and where, in one sentence a person can act on; at most ${ERROR_MESSAGE_MAX_LENGTH} characters.`,
    maxLength: ERROR_MESSAGE_MAX_LENGTH,
    example: 'Invalid request body: categoryId must be a whole number from 1 to 9007199254740991.',
  })
  message!: string;

  @ApiProperty({
    description: 'The HTTP status code, repeated.',
    type: 'integer',
    format: 'int32',
    minimum: 100,
    maximum: 599,
    example: 400,
  })
  status!: number;
}
