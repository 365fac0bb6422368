import type { ServerResponse } from 'node:http';
import { z } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { SessionError, type SessionErrorCode } from '../sessions/sessions.js';
import { StoreError, type StoreErrorCode } from '../store/store-error.js';

/** Every error the API answers has this body: a code to switch on and a sentence that says what to do. */
export const ErrorBody = z
  .object({
    error: z.object({
      code: z
        .string()
        .describe(
          'Stable, for programs: not_found, busy, too_many, bad_request, bad_json, too_large, forbidden, unauthorized, not_implemented, …',
        ),
      message: z.string().describe('For people: what happened and what to do.'),
    }),
  })
  .openapi('Error');
export type ErrorBody = z.infer<typeof ErrorBody>;

/** An error with the HTTP status and code the client should see. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    /** Extra response headers, e.g. WWW-Authenticate on a 401. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const SESSION_STATUS: Record<SessionErrorCode, ContentfulStatusCode> = {
  not_found: 404,
  busy: 409,
  too_many: 429,
  bad_request: 400,
  nothing_to_undo: 409,
};

// A full disk is the server's storage, not the request: 507 says so; the rest is "try again later" or broken.
const STORE_STATUS: Record<StoreErrorCode, ContentfulStatusCode> = {
  disk_full: 507,
  read_only: 503,
  busy: 503,
  damaged: 500,
  io: 500,
};

/** Issues as `path: message; …`, so a client sees which field was wrong without reading a schema. */
export function describeIssues(error: z.ZodError, where: string): string {
  return error.issues.map((i) => `${[where, ...i.path].join('.')}: ${i.message}`).join('; ');
}

/**
 * The API's view of any error. Anything not recognised is a 500 whose message says nothing of the
 * inside (paths, SQL, a key in an upstream error); the caller logs the original.
 */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof SessionError) return new ApiError(SESSION_STATUS[err.code], err.code, err.message);
  if (err instanceof StoreError) return new ApiError(STORE_STATUS[err.code], err.code, err.message);
  if (err instanceof z.ZodError) return new ApiError(400, 'bad_request', describeIssues(err, 'request'));
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    return new ApiError(
      status,
      status === 413 ? 'too_large' : status < 500 ? 'bad_request' : 'internal',
      err.message || 'The request could not be handled.',
    );
  }
  return new ApiError(500, 'internal', 'Something went wrong inside Zhixing. The server log has the details.');
}

export const isUnexpected = (err: unknown): boolean => toApiError(err).code === 'internal';

export const errorJson = (code: string, message: string): string => JSON.stringify({ error: { code, message } });

/**
 * Answers an error straight on the node response, for the checks that run before Hono.
 * `headers` are the security headers every response carries.
 */
export function sendError(res: ServerResponse, err: ApiError, headers: Record<string, string>): void {
  const body = errorJson(err.code, err.message);
  res.writeHead(err.status, {
    ...headers,
    ...err.headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** The 501 body for a route the core does not back yet. */
export const notImplemented = (what: string): ApiError =>
  new ApiError(501, 'not_implemented', `${what} arrive in a later version of Zhixing.`);
