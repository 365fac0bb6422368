import type { HttpBindings } from '@hono/node-server';
import { OpenAPIHono, z, type RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { readJsonBody } from './body.js';
import { ApiError, describeIssues, ErrorBody, notImplemented } from './errors.js';

/** Handlers reach the node request and response through `c.env` (SSE writes straight to it). */
export type ServerEnv = { Bindings: HttpBindings };
export type ApiContext = Context<ServerEnv>;

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type ObjectSchema = z.ZodObject<z.ZodRawShape>;
type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

export interface ResponseSpec {
  description: string;
  /** A JSON body. */
  schema?: z.ZodType;
  /** An event stream instead of (or, under content negotiation, beside) the JSON body. */
  events?: boolean;
  /** A file's bytes, typed as the description says. */
  file?: boolean;
}

/** One route: what the OpenAPI document says about it and what the handler is given, from the same schemas. */
export interface Endpoint<
  P extends ObjectSchema | undefined,
  Q extends ObjectSchema | undefined,
  B extends z.ZodType | undefined,
> {
  method: Method;
  /** In OpenAPI form: `/api/sessions/{id}`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  params?: P;
  query?: Q;
  body?: B;
  /** The body is raw bytes the handler reads itself (an upload), not JSON: what they are. */
  rawBody?: string;
  responses: Record<number, ResponseSpec>;
  /** The error statuses the route may answer, documented with the Error body. */
  errors?: number[];
  /** What an error status means for this route, where the usual sentence would mislead. */
  errorText?: Record<number, string>;
}

export interface EndpointInput<P, Q, B> {
  params: Infer<P>;
  query: Infer<Q>;
  body: Infer<B>;
}

const ERROR_TEXT: Record<number, string> = {
  400: 'The request is malformed: the message says which field.',
  403: "Refused: the path leads outside the workspace (or the request is not from this server's own pages).",
  404: 'There is no such session, file or route.',
  409: 'The session is still working on the previous message.',
  413: 'The request body is over the limit: 1 MiB, 25 MiB for an upload.',
  429: 'Too many sessions are running at once.',
  501: 'Not in this version yet.',
  507: 'The disk is full.',
};
const binary = () => z.string().openapi({ format: 'binary' });

export const newSubApp = () => new OpenAPIHono<ServerEnv>();

const honoPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

function parse<S extends z.ZodType>(schema: S, value: unknown, where: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new ApiError(400, 'bad_request', describeIssues(result.error, where));
  return result.data;
}

function toRouteConfig(
  spec: Endpoint<ObjectSchema | undefined, ObjectSchema | undefined, z.ZodType | undefined>,
): RouteConfig {
  const responses: RouteConfig['responses'] = {};
  for (const [status, r] of Object.entries(spec.responses)) {
    const content: Record<string, { schema: z.ZodType }> = {};
    if (r.schema) content['application/json'] = { schema: r.schema };
    if (r.events)
      content['text/event-stream'] = {
        schema: z
          .string()
          .describe('Server-sent events: `id:` (when known), `event: <type>`, `data: <the event as JSON>`.'),
      };
    if (r.file) content['*/*'] = { schema: binary() };
    responses[status] = Object.keys(content).length
      ? { description: r.description, content }
      : { description: r.description };
  }
  for (const status of spec.errors ?? []) {
    responses[status] = {
      description: spec.errorText?.[status] ?? ERROR_TEXT[status] ?? 'An error.',
      content: { 'application/json': { schema: ErrorBody } },
    };
  }
  return {
    method: spec.method,
    path: spec.path,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    request: {
      ...(spec.params ? { params: spec.params } : {}),
      ...(spec.query ? { query: spec.query } : {}),
      ...(spec.body ? { body: { required: true, content: { 'application/json': { schema: spec.body } } } } : {}),
      ...(spec.rawBody
        ? {
            body: {
              required: true,
              description: spec.rawBody,
              content: { 'application/octet-stream': { schema: binary() } },
            },
          }
        : {}),
    },
    responses,
  };
}

/**
 * Registers a route in the sub-app's OpenAPI registry and its handler, with the path, query and
 * body validated against the same zod schemas the document is generated from. Validation is ours
 * rather than the library's so every failure has the API's error shape and the body is read with
 * its size limit whatever the Content-Type.
 */
export function endpoint<
  P extends ObjectSchema | undefined,
  Q extends ObjectSchema | undefined,
  B extends z.ZodType | undefined,
>(
  app: OpenAPIHono<ServerEnv>,
  spec: Endpoint<P, Q, B>,
  handler: (c: ApiContext, input: EndpointInput<P, Q, B>) => Response | Promise<Response>,
): void {
  app.openAPIRegistry.registerPath(toRouteConfig(spec));
  app.on(spec.method.toUpperCase(), honoPath(spec.path), async (c) => {
    const input = {
      params: spec.params ? parse(spec.params, c.req.param(), 'path') : undefined,
      query: spec.query ? parse(spec.query, c.req.query(), 'query') : undefined,
      body: spec.body ? parse(spec.body, (await readJsonBody(c.req.raw)) ?? {}, 'body') : undefined,
    } as EndpointInput<P, Q, B>;
    return handler(c, input);
  });
}

/**
 * A route answered before the router (the web app's pages, /mcp), listed in the document all the same.
 * Only routes without parameters; GET unless `method` says otherwise.
 */
export function documentOnly(
  app: OpenAPIHono<ServerEnv>,
  spec: Omit<Endpoint<undefined, undefined, undefined>, 'method' | 'params' | 'query' | 'body' | 'rawBody'> & {
    method?: Method;
  },
): void {
  app.openAPIRegistry.registerPath(toRouteConfig({ ...spec, method: spec.method ?? 'get' }));
}

/** A route the core does not back yet: documented, and answered with 501. */
export function laterEndpoint(
  app: OpenAPIHono<ServerEnv>,
  spec: Omit<Endpoint<undefined, undefined, undefined>, 'responses' | 'errors'>,
  what: string,
): void {
  // Its path parameters are documented as plain strings, so the document stays valid.
  const names = [...spec.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const params = names.length ? z.object(Object.fromEntries(names.map((n) => [n, z.string()]))) : undefined;
  const description = `${what} arrive in a later version; until then this answers 501.`;
  app.openAPIRegistry.registerPath(toRouteConfig({ ...spec, params, description, responses: {}, errors: [501] }));
  app.on(spec.method.toUpperCase(), honoPath(spec.path), () => {
    throw notImplemented(what);
  });
}

/** The OpenAPI 3.1 document of every route mounted on `root`. */
export function openApiDocument(root: OpenAPIHono<ServerEnv>, version: string) {
  root.openAPIRegistry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description:
      'Required on every API request when the server is bound to a non-loopback address (the value of ZHIXING_TOKEN).',
  });
  return root.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'Zhixing HTTP API',
      version,
      description:
        'The HTTP host of Zhixing (知行), a personal assistant that talks and acts. ' +
        "Requests whose Origin or Host is not this server's own loopback address are refused with 403; bound to another address, " +
        "every request to /api, /docs and /openapi.json needs `Authorization: Bearer <ZHIXING_TOKEN>` (401 without it); the web app's own files do not. " +
        'Request bodies are JSON (whatever the Content-Type says), at most 1 MiB; an upload (POST /api/files) is the raw bytes, at most 25 MiB. ' +
        'Errors are `{"error":{"code","message"}}` with a fitting status.',
    },
  });
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;
