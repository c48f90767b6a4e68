import swagger from '@fastify/swagger';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';
import { ERROR_CODES, type Realm } from '@contest/shared';

/**
 * The API description (docs/decisions.md, "Generated API description and the bad-input walk"):
 * @fastify/swagger collects every route, the zod request
 * schemas become JSON Schema (fastify-type-provider-zod's transform, on zod's own toJSONSchema),
 * and each operation says who may call it (`x-guard`, read from the guard tags of
 * admin.guard.ts / auth.guard.ts) and which operation record it writes (`x-audit`, the route's
 * `config.audit`). Responses are envelopes built in code, so they are described once, generically.
 * `npm run api:doc` writes docs/openapi.json and docs/api.md from it; signed-in admins read it
 * live at OPENAPI_PATH.
 */
export const OPENAPI_PATH = '/api/admin/openapi.json';

/** Who may call an operation, as written into `x-guard` (absent: public). */
export interface ApiGuard {
  realms: Realm[];
  /** Admin button code; null: any signed-in admin. SUPER_ADMIN holds every button and menu. */
  button?: string | null;
  /** Any of these admin menus. */
  menus?: string[];
  /** Expert calls that also need the review agreement accepted. */
  agreement?: boolean;
}

/** The tags guards carry (admin.guard.ts GuardInfo, auth.guard.ts RealmGuardInfo). */
type GuardTag =
  | { kind: 'button'; code: string | null }
  | { kind: 'menu'; codes: string[] }
  | { kind: 'any' }
  | { kind: 'realm'; realms: Realm[]; agreement?: boolean };

function hooksOf(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** The first tagged guard among the route's onRequest and preHandler hooks. */
export function guardOfRoute(route: Pick<RouteOptions, 'onRequest' | 'preHandler'>): ApiGuard | null {
  const tag = [...hooksOf(route.onRequest), ...hooksOf(route.preHandler)]
    .map((hook) => (hook as { guard?: GuardTag } | null)?.guard)
    .find((g) => g !== undefined);
  if (!tag) return null;
  switch (tag.kind) {
    case 'button':
      return { realms: ['ADMIN'], button: tag.code };
    case 'menu':
      return { realms: ['ADMIN'], menus: [...tag.codes] };
    case 'any':
      return { realms: ['ADMIN'], button: null };
    case 'realm':
      return tag.agreement ? { realms: [...tag.realms], agreement: true } : { realms: [...tag.realms] };
  }
}

const REALM_NAMES: Record<Realm, string> = { ADMIN: 'admin', USER: 'participant', EXPERT: 'expert' };

/** One line for humans: the "who may call" column of docs/api.md and the operation summary. */
export function describeGuard(guard: ApiGuard | null | undefined): string {
  if (!guard) return 'public';
  if (guard.menus) return `admin with menu ${guard.menus.join(' or ')}`;
  if (guard.button) return `admin with button ${guard.button}`;
  const who = guard.realms.map((r) => REALM_NAMES[r]).join(' or ');
  if (guard.button === null) return 'any signed-in admin';
  return guard.agreement ? `${who} (review agreement accepted)` : `signed-in ${who}`;
}

/** The audience a route is listed under. */
function tagOf(url: string, guard: ApiGuard | null): string {
  if (!guard) return 'public';
  if (url.startsWith('/api/admin/')) return 'admin';
  if (url.startsWith('/api/expert/')) return 'expert';
  if (guard.realms.length === 1 && guard.realms[0] === 'USER') return 'participant';
  if (guard.realms.length === 1 && guard.realms[0] === 'EXPERT') return 'expert';
  if (guard.realms.length === 1 && guard.realms[0] === 'ADMIN') return 'admin';
  return 'session';
}

const TAGS = [
  { name: 'public', description: 'No session needed (some show more to a signed-in caller).' },
  { name: 'session', description: 'Any signed-in account of the listed realms.' },
  { name: 'participant', description: 'A participant (USER realm) session.' },
  { name: 'expert', description: 'An expert (EXPERT realm) session.' },
  { name: 'admin', description: 'The admin console: an ADMIN session holding the listed menu or button (SUPER_ADMIN holds all).' },
];

const zodTransform = createJsonSchemaTransform({ skipList: [] });

type SwaggerTransformInput = Parameters<typeof zodTransform>[0];

function describeRoute(input: SwaggerTransformInput): { schema: Record<string, unknown>; url: string } {
  const { url, route } = input;
  // The web app's files and the SPA fallback are not API calls.
  if (!url.startsWith('/api/')) return { schema: { hide: true }, url };
  const converted = input.schema ? (zodTransform(input).schema as Record<string, unknown> | undefined) : undefined;
  const guard = guardOfRoute(route as RouteOptions);
  const audit = (route.config as { audit?: string } | undefined)?.audit;
  const schema: Record<string, unknown> = {
    ...converted,
    tags: [tagOf(url, guard)],
    summary: `${describeGuard(guard)}${audit ? `; records ${audit}` : ''}`,
  };
  if (guard) {
    schema.security = [{ bearer: [] }];
    schema['x-guard'] = guard;
  }
  if (audit) schema['x-audit'] = audit;
  return { schema, url };
}

const ENVELOPE = {
  type: 'object',
  description:
    'Every JSON answer, success or failure (docs/rules/screens.md, "Calls and answers"): HTTP status equals `status`; `code` is machine-readable; ' +
    '`message` is for people (request language); `data` is the payload, or on failure null or details such as `{field}` or `{reason}`. ' +
    'File downloads answer with the file itself on success and with this envelope on failure.',
  required: ['status', 'code', 'message', 'data'],
  properties: {
    status: { type: 'integer', minimum: 200, maximum: 599 },
    code: { type: 'string', enum: ['OK', ...ERROR_CODES] },
    message: { type: 'string' },
    data: {},
  },
  additionalProperties: false,
};

const envelopeResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Envelope' } } },
});

const RESPONSES = {
  Ok: envelopeResponse('Success: code OK, the payload in data (or the file, for downloads).'),
  BadRequest: envelopeResponse('VALIDATION_FAILED (data.field names the field) or BAD_REQUEST (malformed body, a business rule; data.reason when stable).'),
  Unauthorized: envelopeResponse('UNAUTHORIZED (no, expired or wrong-realm session) or, as 409, SESSION_REPLACED (signed in elsewhere).'),
  Forbidden: envelopeResponse('FORBIDDEN: the session lacks the menu, button or agreement the call needs.'),
  Error: envelopeResponse('Any other failure: 404 NOT_FOUND, 413 PAYLOAD_TOO_LARGE, 415 UNSUPPORTED_MEDIA_TYPE, 429 RATE_LIMITED (Retry-After), 5xx INTERNAL / SERVICE_UNAVAILABLE.'),
};

const ref = (name: keyof typeof RESPONSES) => ({ $ref: `#/components/responses/${name}` });

type Operation = { security?: unknown; 'x-guard'?: ApiGuard; responses?: unknown };

function finishDocument({ openapiObject }: { openapiObject: Record<string, unknown> }): Record<string, unknown> {
  const paths = (openapiObject.paths ?? {}) as Record<string, Record<string, Operation>>;
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item)) {
      const guard = op['x-guard'];
      op.responses = {
        200: ref('Ok'),
        400: ref('BadRequest'),
        ...(guard ? { 401: ref('Unauthorized') } : {}),
        ...(guard && (guard.button || guard.menus || guard.agreement) ? { 403: ref('Forbidden') } : {}),
        default: ref('Error'),
      };
    }
  }
  const components = (openapiObject.components ?? {}) as Record<string, unknown>;
  return {
    ...openapiObject,
    tags: TAGS,
    components: {
      ...components,
      schemas: { ...(components.schemas as object | undefined), Envelope: ENVELOPE },
      responses: RESPONSES,
    },
  };
}

/** Registers the collector; call before any route is added. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Smart Medical-Insurance Contest portal API',
        version: '1',
        description: 'Generated from the route table and its zod schemas (npm run api:doc). Hand-written notes: docs/api-*.md.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'The session token of POST /api/login, /api/admin/login or /api/expert/login.' },
        },
      },
    },
    transform: describeRoute as never,
    transformObject: finishDocument as never,
  });
}

/** Objects with sorted keys (arrays keep their order): the same routes give the same bytes. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
  [key: string]: unknown;
}

export interface OpenApiOperation {
  tags?: string[];
  summary?: string;
  parameters?: { in: string; name: string; required?: boolean; schema?: Record<string, unknown> }[];
  requestBody?: { content: Record<string, { schema?: Record<string, unknown> }> };
  'x-guard'?: ApiGuard;
  'x-audit'?: string;
}

/** The description of a ready app, keys sorted. */
export function openApiDocument(app: FastifyInstance): OpenApiDocument {
  return sortKeys(app.swagger()) as OpenApiDocument;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'] as const;

/** Every operation of the description, in path order. */
export function operationsOf(doc: OpenApiDocument): { method: string; path: string; op: OpenApiOperation }[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((m) => item[m]).map((method) => ({ method: method.toUpperCase(), path, op: item[method]! })),
  );
}

/** docs/api.md: one table of every call, grouped by audience. */
export function apiMarkdown(doc: OpenApiDocument): string {
  const ops = operationsOf(doc);
  const lines = [
    '# API index (generated)',
    '',
    '<!-- Generated by `npm run api:doc` from the route table; `npm run api:doc:check` (part of `npm test`) fails when it is stale. Do not edit. -->',
    '',
    `Every call of the server: ${ops.length} operations. The full description (parameters, query and body schemas as JSON Schema) is [openapi.json](openapi.json) (OpenAPI 3.1); signed-in admins also get it live at \`GET ${OPENAPI_PATH}\`. Request and response details by area: api-admin.md, api-content.md, api-contest.md, api-results.md, api-review.md, live-final.md.`,
    '',
    'Every answer is the envelope `{status, code, message, data}` (status equals the HTTP status; failures: 400 VALIDATION_FAILED/BAD_REQUEST, 401 UNAUTHORIZED, 403 FORBIDDEN, 404 NOT_FOUND, 409 SESSION_REPLACED, 413, 415, 429 RATE_LIMITED, 5xx); downloads send the file on success.',
    '"Audit" is the operation-record action a call writes (admin and expert writes must declare one).',
  ];
  for (const tag of TAGS) {
    const rows = ops.filter((o) => (o.op.tags ?? [])[0] === tag.name);
    if (!rows.length) continue;
    lines.push('', `## ${tag.name}`, '', tag.description, '', '| Method | Path | Who may call | Audit |', '| --- | --- | --- | --- |');
    for (const { method, path, op } of rows) {
      lines.push(`| ${method} | \`${path}\` | ${describeGuard(op['x-guard'])} | ${op['x-audit'] ?? '—'} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export function openApiJson(doc: OpenApiDocument): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}
