import { HttpException } from '@nestjs/common';
import { ERROR_CODES, type ErrorCode } from '@petstore/contract';

/** An error the service answers on purpose: its code decides the HTTP status, its message is shown as is. */
export class ApiException extends HttpException {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Response headers that belong to this error, e.g. `Allow` or `WWW-Authenticate`. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message, ERROR_CODES[code]);
  }
}

export const validationFailed = (message: string) => new ApiException('validation_failed', message);
