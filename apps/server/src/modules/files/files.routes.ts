import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ATTACHMENT_ORIGINS,
  DEFAULT_ATTACHMENT_ORIGIN,
  FILE_NAME_MAX,
  REALMS,
  SINGLE_UPLOAD_MAX_BYTES,
  SNIFF_BYTES,
  UPLOAD_MSG,
  UPLOAD_PIECE_SIZE,
} from '@contest/shared';
import { AppError, badRequest, notFound, payloadTooLarge } from '../../lib/errors.js';
import { failure, ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import { authOf, bearerToken, requireRealm } from '../auth/auth.guard.js';
import type { SessionService } from '../auth/session.service.js';
import { ANONYMOUS, type Reader } from './files.access.js';
import { contentDisposition, downloadDisposition, etagMatches, parseRange, presignedRedirectHeaders } from './files.http.js';
import type { FilesService, PieceWrite, ReceivedFile, Uploader } from './files.service.js';
import { FILE_KEY_COOKIE } from './signed-link.js';

export interface FilesRoutesOptions {
  service: FilesService;
  sessions: SessionService;
  incomingPath: () => Promise<string>;
}

/** The content type of a raw piece body (fields in the query string). */
const RAW_PIECE_TYPE = 'application/octet-stream';

/** Where the file-key cookie goes: only the stream reads it. */
const STREAM_COOKIE_PATH = '/api/attachment/stream';

// Fields are short: generous room for a 200-character name in UTF-8, so a 10,000-character one is cut and refused.
const FIELD_MAX_BYTES = FILE_NAME_MAX * 4 + 64;

interface Received {
  fields: Record<string, string>;
  file: (ReceivedFile & { filename: string }) | null;
}

/** Where a file part goes instead of a temporary file, decided from the fields that came before it. */
type Direct = (fields: Record<string, string>) => Promise<Writable | null>;

/**
 * Streams `source` into `target`, counting, keeping the first SNIFF_BYTES and hashing on the way.
 * A 'data' listener beside pipeline's own costs nothing per chunk; an async generator in the
 * pipeline cost ~10% of upload throughput (bench/upload.bench.ts). Sizes are bounded by the
 * caller: busboy truncates a part at its limit, a raw body is refused unless its declared length fits.
 */
async function drain(source: Readable, target: Writable, hash: boolean): Promise<ReceivedFile & { path: '' }> {
  const digest = hash ? createHash('sha256') : null;
  const headChunks: Buffer[] = [];
  let size = 0;
  source.on('data', (chunk: Buffer) => {
    if (size < SNIFF_BYTES) headChunks.push(chunk.subarray(0, SNIFF_BYTES - size));
    size += chunk.length;
    digest?.update(chunk);
  });
  await pipeline(source, target);
  return { path: '', size, head: Buffer.concat(headChunks), sha256: digest?.digest('hex') };
}

/**
 * Reads a multipart body, writing its one file part to a temporary file as it arrives (never
 * buffered whole) and collecting the text fields, whatever their order. A file over `maxFileBytes`
 * is a 413; the temporary file is removed on any failure.
 */
async function receive(
  request: FastifyRequest,
  maxFileBytes: number,
  incomingPath: () => Promise<string>,
  hash: boolean,
  direct?: Direct,
): Promise<Received> {
  if (!request.isMultipart()) throw badRequest(UPLOAD_MSG.missingFile, { field: 'file' });
  const fields: Record<string, string> = {};
  let file: Received['file'] = null;
  try {
    const parts = request.parts({ limits: { fileSize: maxFileBytes, files: 1, fields: 10, fieldSize: FIELD_MAX_BYTES, parts: 12 } });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.valueTruncated) {
          throw badRequest(part.fieldname === 'name' ? UPLOAD_MSG.nameTooLong : `参数 ${part.fieldname} 不合法`, { field: part.fieldname });
        }
        fields[part.fieldname] = String(part.value);
        continue;
      }
      const target = direct ? await direct(fields) : null;
      // Written straight to its place, the part has no temporary file ('' marks that).
      const path = target ? '' : await incomingPath();
      file = { path, size: 0, filename: part.filename };
      // busboy stops at its own limit and marks the part truncated: that is the 413.
      const drained = await drain(part.file, target ?? createWriteStream(path, { flags: 'wx' }), hash);
      if (part.file.truncated) throw payloadTooLarge(UPLOAD_MSG.tooLarge);
      file = { ...drained, path, filename: part.filename };
    }
  } catch (err) {
    if (file?.path) await rm(file.path, { force: true });
    throw err;
  }
  return { fields, file };
}

const originSchema = z.enum(ATTACHMENT_ORIGINS, { error: UPLOAD_MSG.badOrigin }).default(DEFAULT_ATTACHMENT_ORIGIN);
const intField = (message: string) =>
  z
    .string({ error: message })
    .regex(/^\d{1,6}$/, message)
    .transform(Number);

const pieceFields = z.object({
  origin: originSchema,
  id: z.string({ error: UPLOAD_MSG.badUploadId }),
  name: z.string({ error: UPLOAD_MSG.badName }),
  chunks: intField(UPLOAD_MSG.badChunk),
  chunk: intField(UPLOAD_MSG.badChunk),
});

const singleFields = z.object({ origin: originSchema, name: z.string().optional() });

function parseFields<T extends z.ZodType>(schema: T, fields: Record<string, string>): z.output<T> {
  const result = schema.safeParse(fields);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw badRequest(issue.message, { field: issue.path.join('.') });
}

const uploaderOf = (request: FastifyRequest): Uploader => ({
  auth: authOf(request),
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});

const linkQuery = z.object({
  preview: z.string().optional(),
  /** 1: answer 302 to a presigned store link when the store has them (S3), else stream as usual. */
  redirect: z.string().optional(),
  expires: z.string().optional(),
  acct: z.string().optional(),
  sig: z.string().optional(),
  sid: z.string().optional(),
});

/** One cookie's value from the Cookie header (no cookie plugin: this is the only cookie the API reads). */
function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

export const filesRoutes: FastifyPluginAsync<FilesRoutesOptions> = async (parent, { service, sessions, incomingPath }) => {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  // Registered here only: no other route accepts multipart bodies.
  await app.register(multipart, { throwFileSizeLimit: true });
  // A raw piece body (fields in the query string) is left unread here for the route to stream.
  app.addContentTypeParser(RAW_PIECE_TYPE, (_request, _payload, done) => done(null));
  if (!app.hasRequestDecorator('auth')) app.decorateRequest('auth', null);

  const signedIn = requireRealm(sessions, ...REALMS);

  /**
   * Signed link, else bearer token (401/409 when bad), else nobody. A session-bound link (an
   * expert's) also takes the caller's proof: its token's session when it sends one, else the
   * file-key cookie.
   */
  async function readerOf(request: FastifyRequest, uniqueNo: string, link: z.infer<typeof linkQuery>): Promise<Reader> {
    const token = bearerToken(request);
    if (link.sig !== undefined || link.expires !== undefined || link.acct !== undefined || link.sid !== undefined) {
      const proof = link.sid === undefined ? {} : token ? { sessionId: (await sessions.authenticate(token, REALMS)).sessionId } : { cookie: cookieOf(request, FILE_KEY_COOKIE) };
      return service.readerFromLink(uniqueNo, link, proof);
    }
    if (!token) return ANONYMOUS;
    const auth = await sessions.authenticate(token, REALMS);
    request.auth = auth;
    return { kind: 'account', accountId: auth.accountId, realm: auth.realm, roleCode: auth.roleCode, sessionId: auth.sessionId };
  }

  /** The end of each admitted piece request's turn (service.admitPiece). */
  const turns = new WeakMap<FastifyRequest, () => void>();

  /**
   * First thing, before a byte of the body is read: a piece beyond the instance's limit waits in
   * line, unread (admission.ts); one that finds the line full, or waits too long, is refused with
   * 429 and Retry-After. Nothing of it is parsed, buffered or written; Node reads and discards the
   * rest of a refused body and keeps the connection, so the browser reads the 429 instead of a
   * reset connection (closing at once would cut the upload short but leave browsers a connection
   * error in place of the answer). A place free now, or a full line, costs no session lookup;
   * waiting is for signed-in callers only, so anonymous requests cannot fill the line.
   */
  async function admitPiece(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (service.pieceWouldWait()) request.auth = await sessions.authenticate(bearerToken(request), REALMS);
    const gone = new AbortController();
    const onGone = () => gone.abort();
    reply.raw.once('close', onGone);
    let leave: () => void;
    try {
      leave = await service.admitPiece(gone.signal);
    } catch (err) {
      const retryAfter = err instanceof AppError ? (err.data as { retryAfter?: number } | null)?.retryAfter : undefined;
      if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
      throw err;
    } finally {
      reply.raw.off('close', onGone);
    }
    turns.set(request, leave);
    // The client left just as its turn came: the place goes to the next in line at once.
    if (gone.signal.aborted) leave();
    // Whatever way the request ends (answered, refused later, connection lost), its turn ends.
    reply.raw.once('finish', leave);
    reply.raw.once('close', leave);
  }

  /**
   * A piece sent as its raw bytes (Content-Type application/octet-stream) with the form's fields
   * in the query string: what the web uploader sends. No multipart parsing, which cost about a
   * third of the throughput on the bench machine (docs/performance.md). Same checks, same answers.
   */
  async function rawPiece(request: FastifyRequest, uploader: Uploader) {
    const fields: Record<string, string> = {};
    for (const [key, value] of Object.entries((request.query ?? {}) as Record<string, unknown>)) {
      if (typeof value === 'string') fields[key] = value;
    }
    const input = parseFields(pieceFields, fields);
    // The declared length bounds the body (Node's parser reads no more), so a piece too large is
    // refused before a byte of it is written; without one its size would show only while writing.
    const declared = request.headers['content-length'];
    if (declared === undefined) throw badRequest(UPLOAD_MSG.pieceLengthRequired);
    if (Number(declared) > UPLOAD_PIECE_SIZE) throw payloadTooLarge(UPLOAD_MSG.tooLarge);
    const endTurn = () => turns.get(request)?.();
    const piece = await service.beginPiece(uploader, input);
    if (piece) {
      let body: ReceivedFile;
      try {
        body = await drain(request.raw, piece.stream, false);
      } catch (err) {
        await piece.release();
        throw err;
      } finally {
        endTurn();
      }
      return piece.finish({ size: body.size, head: body.head ?? Buffer.alloc(0) });
    }
    // Already stored or being joined: the bytes go to a temporary file and acceptPiece answers.
    const path = await incomingPath();
    try {
      let body: ReceivedFile;
      try {
        body = await drain(request.raw, createWriteStream(path, { flags: 'wx' }), false);
      } finally {
        endTurn();
      }
      return await service.acceptPiece(uploader, input, { ...body, path });
    } finally {
      await rm(path, { force: true });
    }
  }

  app.post('/attachment/piece/upload', { onRequest: admitPiece, preHandler: signedIn }, async (request) => {
    const uploader = uploaderOf(request);
    if (request.headers['content-type']?.split(';')[0]?.trim().toLowerCase() === RAW_PIECE_TYPE) return ok(await rawPiece(request, uploader));
    // Fields first (as browsers send them): the piece streams straight into its upload's file.
    const begun: { piece: PieceWrite | null } = { piece: null };
    const direct: Direct = async (fields) => {
      const parsed = pieceFields.safeParse(fields);
      if (!parsed.success) return null; // fields after the file, or bad ones: taken and refused as before
      begun.piece = await service.beginPiece(uploader, parsed.data);
      return begun.piece?.stream ?? null;
    };
    let received: Received;
    try {
      received = await receive(request, UPLOAD_PIECE_SIZE, incomingPath, false, direct);
    } catch (err) {
      await begun.piece?.release();
      throw err;
    } finally {
      // The body is in (or refused): checking, folding and a join, which queues on its own, need no turn.
      turns.get(request)?.();
    }
    const { fields, file } = received;
    if (begun.piece && file) return ok(await begun.piece.finish({ size: file.size, head: file.head ?? Buffer.alloc(0) }));
    try {
      if (!file) throw badRequest(UPLOAD_MSG.missingFile, { field: 'file' });
      const input = parseFields(pieceFields, fields);
      return ok(await service.acceptPiece(uploader, input, file));
    } finally {
      if (file?.path) await rm(file.path, { force: true });
    }
  });

  app.get(
    '/attachment/piece/status',
    { preHandler: signedIn, schema: { querystring: z.object({ id: z.string({ error: UPLOAD_MSG.badUploadId }) }) } },
    async (request) => ok(await service.pieceStatus(authOf(request), request.query.id)),
  );

  app.post('/attachment/upload/public', { preHandler: signedIn }, async (request) => {
    const { fields, file } = await receive(request, SINGLE_UPLOAD_MAX_BYTES, incomingPath, true);
    try {
      if (!file) throw badRequest(UPLOAD_MSG.missingFile, { field: 'file' });
      const input = parseFields(singleFields, fields);
      return ok(await service.uploadSingle(uploaderOf(request), { origin: input.origin, name: input.name ?? file.filename }, file));
    } finally {
      if (file) await rm(file.path, { force: true });
    }
  });

  app.get(
    '/attachment/accessUrl',
    { schema: { querystring: z.object({ filePath: z.string().max(2048) }) } },
    async (request, reply) => {
      const reader = await readerOf(request, '', {});
      const { sessionKey, ...answer } = await service.accessUrl(reader, request.query.filePath);
      // An expert's link is bound to their session; the browser's tokenless uses of it (<video
      // src>, a download link) prove the session with this cookie, which only the stream reads.
      if (sessionKey) {
        const secure = request.protocol === 'https' ? '; Secure' : '';
        reply.header('set-cookie', `${FILE_KEY_COOKIE}=${sessionKey}; Path=${STREAM_COOKIE_PATH}; HttpOnly; SameSite=Strict${secure}`);
      }
      return ok(answer);
    },
  );

  app.get(
    '/attachment/stream/:id',
    { compress: false, schema: { params: z.object({ id: z.string().max(64) }), querystring: linkQuery } },
    async (request, reply) => {
      const { id } = request.params;
      const reader = await readerOf(request, id, request.query);
      const file = await service.findReadable(reader, id);
      const preview = request.query.preview === '1';
      // Experts get a neutral name, a blind copy, a stamped download, or a refusal (403).
      const delivery = await service.delivery(reader, file, preview);
      if (delivery.copy) {
        // A copy made for this reader: never the stored bytes, so no ranges, ETag or store redirect.
        const bytes = await service.renderCopy(file, delivery.copy);
        return reply
          .headers({
            'cache-control': 'private, no-store',
            'x-content-type-options': 'nosniff',
            'content-type': file.mimeType,
            'content-disposition': contentDisposition(downloadDisposition(preview, file.mimeType), delivery.name),
            'content-length': String(bytes.length),
          })
          .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
      }
      const etag = `"${file.sha256}"`;
      const common = {
        etag,
        'accept-ranges': 'bytes',
        'cache-control': 'private, no-cache',
        'x-content-type-options': 'nosniff',
      };
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).headers(common).send();
      const disposition = downloadDisposition(preview, file.mimeType);

      // Only when asked: the web app reads files through fetch (token header, or a signed link
      // loaded into a blob), where a cross-origin redirect would need CORS on the bucket. Links
      // a browser navigates to (<a href>, <video src>) add redirect=1 and let the store serve the
      // bytes, ranges included. The access checks above have run; the link lives for minutes.
      if (request.query.redirect === '1') {
        const location = await service.presignedUrl(file, disposition, delivery.name);
        if (location) return reply.code(302).headers(presignedRedirectHeaders(location)).send();
      }

      const ifRange = request.headers['if-range'];
      const range = ifRange && ifRange !== etag ? { kind: 'whole' as const } : parseRange(request.headers.range, file.size);
      if (range.kind === 'unsatisfiable') {
        return reply
          .code(416)
          .headers({ ...common, 'content-range': `bytes */${file.size}` })
          .send(failure(416, 'BAD_REQUEST', UPLOAD_MSG.badRange, { size: file.size }));
      }
      const part = range.kind === 'part' ? { start: range.start, end: range.end } : undefined;
      const body = await service.open(file, part);
      if (!body) {
        request.log.error({ uniqueNo: file.uniqueNo, storageKey: file.storageKey }, 'attachment missing from storage');
        throw notFound();
      }
      reply.headers({
        ...common,
        'content-type': file.mimeType,
        'content-disposition': contentDisposition(disposition, delivery.name),
        'content-length': String(part ? part.end - part.start + 1 : file.size),
      });
      if (part) reply.code(206).header('content-range', `bytes ${part.start}-${part.end}/${file.size}`);
      return reply.send(body);
    },
  );
};

