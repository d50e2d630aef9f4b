import { ERRORS, type ErrorBody, type ErrorCode, type ErrorStatus } from '../../src/domain/contracts/errors.ts';

/**
 * An error the server answers with as JSON `{ code, message }`. The code is one of the shared table's
 * (`src/domain/contracts/errors.ts`) and the status the one the table gives it, so a code the client
 * does not know, or a status it does not expect, fails the typecheck. Without a message the body
 * carries the table's text.
 */
export class HttpError<C extends ErrorCode = ErrorCode> extends Error {
  constructor(
    readonly status: ErrorStatus<C>,
    readonly code: C,
    message: string = ERRORS[code].text,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** A refusal's body for the places that answer without throwing (framework errors, the fallbacks). */
export const refusal = (code: ErrorCode, message: string = ERRORS[code].text): ErrorBody => ({ code, message });
