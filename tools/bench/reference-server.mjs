// The benchmark's "ceiling" (issue 6): the service's three operations written straight on node:http and
// better-sqlite3 prepared statements, with nothing in between. Plain .mjs so that it runs on bare `node` and its
// start-up time and memory carry no TypeScript loader.
//
// It keeps what costs time in the service's contract (bearer check in constant time, strict validation with every
// problem named, the same cursor, Link, Location and deprecation headers, JSON error bodies) and the same durability
// (WAL + synchronous=FULL, one INSERT, hence one synced commit, per create). It leaves out what does not change the
// cost of these three workloads: rate limits, security headers, request ids, logging, 405/414/431 handling.
//
// Environment: PORT, HOST, DATABASE (file path), API_KEYS (comma-separated), PUBLIC_BASE_URL (ends in /v1).
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import Database from 'better-sqlite3';

const STATUSES = new Set(['available', 'pending', 'sold']);
const MAX_BODY = 16 * 1024;
const CURSOR_PREFIX = 'p1.';
const GET_PET_HEADERS = {
  deprecation: `@${Date.parse('2026-01-01T00:00:00Z') / 1000}`,
  sunset: new Date('2030-12-05T00:00:00Z').toUTCString(),
  link: '</v1/pets>; rel="successor-version"',
};
const publicBaseUrl = process.env.PUBLIC_BASE_URL ?? `http://localhost:${process.env.PORT ?? 3001}/v1`;
// Keys are compared as SHA-256 digests with timingSafeEqual, as the service does, so the check costs the same.
const keyDigests = (process.env.API_KEYS ?? '').split(',').filter(Boolean).map(sha256);

const db = new Database(process.env.DATABASE ?? 'reference.sqlite');
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
// Same schema as the service's migrations (a no-op when the benchmark hands over a copy of the service's file).
db.exec(`CREATE TABLE IF NOT EXISTS pets (
  id INTEGER PRIMARY KEY AUTOINCREMENT, name varchar(100) NOT NULL, category_id bigint NOT NULL,
  status varchar(16) NOT NULL CHECK ("status" IN ('available', 'pending', 'sold')));
  CREATE INDEX IF NOT EXISTS pets_status_id ON pets (status, id);`);
const COLUMNS = 'id, name, category_id AS categoryId, status';
const sql = {
  page: db.prepare(`SELECT ${COLUMNS} FROM pets WHERE id > ? ORDER BY id LIMIT ?`),
  pageByStatus: db.prepare(`SELECT ${COLUMNS} FROM pets WHERE status = ? AND id > ? ORDER BY id LIMIT ?`),
  byId: db.prepare(`SELECT ${COLUMNS} FROM pets WHERE id = ?`),
  insert: db.prepare('INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?)'),
};

function sha256(text) {
  return createHash('sha256').update(text).digest();
}

function authorized(header) {
  const match = typeof header === 'string' ? /^bearer +([\x21-\x7e]+)$/i.exec(header) : null;
  if (!match) return false;
  const digest = sha256(match[1]);
  let found = false;
  for (const key of keyDigests) found = timingSafeEqual(key, digest) || found;
  return found;
}

function send(res, status, body, headers = {}) {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json), ...headers });
  res.end(json);
}

function fail(res, status, code, message, headers) {
  send(res, status, { code, message, status }, headers);
}

function listPets(res, params) {
  const problems = [];
  for (const name of params.keys()) if (name !== 'limit' && name !== 'status' && name !== 'cursor') problems.push(`${name} is not a known parameter`);
  const limitText = params.get('limit') ?? '20';
  const limit = /^[0-9]{1,3}$/.test(limitText) ? Number(limitText) : NaN;
  if (!(limit >= 1 && limit <= 100)) problems.push('limit must be an integer from 1 to 100');
  const status = params.get('status');
  if (status !== null && !STATUSES.has(status)) problems.push('status must be one of available, pending, sold');
  const cursor = params.get('cursor');
  const afterId = cursor === null ? 0 : decodeCursor(cursor);
  if (Number.isNaN(afterId)) problems.push('cursor is not a cursor this service made');
  if (problems.length) return fail(res, 400, 'validation_failed', `Invalid query parameters: ${problems.join('; ')}.`);

  // One row more than asked tells whether a next page exists, as in the service.
  const rows = status === null ? sql.page.all(afterId, limit + 1) : sql.pageByStatus.all(status, afterId, limit + 1);
  const headers = {};
  if (rows.length > limit) {
    rows.length = limit;
    const next = new URLSearchParams({ limit: String(limit) });
    if (status !== null) next.set('status', status);
    next.set('cursor', Buffer.from(`${CURSOR_PREFIX}${rows[limit - 1].id}`).toString('base64url'));
    headers.link = `<${publicBaseUrl}/pets?${next}>; rel="next"`;
  }
  send(res, 200, rows, headers);
}

function decodeCursor(cursor) {
  const text = /^[A-Za-z0-9_-]{1,40}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const digits = text.slice(CURSOR_PREFIX.length);
  return text.startsWith(CURSOR_PREFIX) && /^[1-9][0-9]{0,15}$/.test(digits) && Number(digits) <= Number.MAX_SAFE_INTEGER ? Number(digits) : NaN;
}

function getPet(res, idText, params) {
  if (params.size) return fail(res, 400, 'validation_failed', `Invalid query parameters: ${[...params.keys()].join(', ')} not known.`, GET_PET_HEADERS);
  if (!/^[0-9]{1,19}$/.test(idText)) return fail(res, 400, 'validation_failed', 'petId must be a base-10 integer.', GET_PET_HEADERS);
  // Beyond the safe range no pet can exist: 404, like any other absent id.
  const id = Number(idText);
  const pet = Number.isSafeInteger(id) ? sql.byId.get(id) : undefined;
  if (!pet) return fail(res, 404, 'not_found', `No pet has id ${idText}.`, GET_PET_HEADERS);
  send(res, 200, pet, GET_PET_HEADERS);
}

function createPet(req, res) {
  if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
    return fail(res, 415, 'unsupported_media_type', 'The body must be application/json.');
  }
  const chunks = [];
  let size = 0;
  req.on('data', (chunk) => {
    size += chunk.length;
    if (size > MAX_BODY) {
      fail(res, 413, 'payload_too_large', 'The body is over 16 KiB.', { connection: 'close' });
      req.destroy();
    } else chunks.push(chunk);
  });
  req.on('end', () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return fail(res, 400, 'malformed_json', 'The body is not valid JSON.');
    }
    const problems = validateNewPet(body);
    if (problems.length) return fail(res, 400, 'validation_failed', `Invalid request body: ${problems.join('; ')}.`);
    const { name, categoryId, status = 'available' } = body;
    // better-sqlite3 is synchronous: the commit, fsync of the WAL included, is done when run() returns.
    const id = Number(sql.insert.run(name, categoryId, status).lastInsertRowid);
    send(res, 201, { id, name, categoryId, status }, { location: `/v1/pets/${id}` });
  });
}

function validateNewPet(body) {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return ['the body must be a JSON object'];
  const problems = [];
  for (const key of Object.keys(body)) if (key !== 'name' && key !== 'categoryId' && key !== 'status') problems.push(`${key} is not a known property`);
  const { name, categoryId, status } = body;
  const length = typeof name === 'string' ? [...name].length : 0;
  if (!(length >= 1 && length <= 100 && /\S/.test(name))) problems.push('name is required: 1 to 100 characters, not only spaces');
  if (!(Number.isSafeInteger(categoryId) && categoryId >= 1)) problems.push('categoryId is required and must be an integer from 1 to 9007199254740991');
  if (status !== undefined && !STATUSES.has(status)) problems.push('status must be one of available, pending, sold');
  return problems;
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://reference');
  const path = url.pathname;
  const getPetId = path.startsWith('/v1/pets/') ? path.slice('/v1/pets/'.length) : null;
  if (path !== '/v1/pets' && getPetId === null) return fail(res, 404, 'not_found', `No route ${path}.`);
  // Authentication comes first, before the body is read, as in the service.
  if (!authorized(req.headers.authorization)) {
    return fail(res, 401, 'unauthorized', 'A valid API key is required.', { 'www-authenticate': 'Bearer', ...(getPetId !== null && GET_PET_HEADERS) });
  }
  if (getPetId !== null && req.method === 'GET') return getPet(res, getPetId, url.searchParams);
  if (path === '/v1/pets' && req.method === 'GET') return listPets(res, url.searchParams);
  if (path === '/v1/pets' && req.method === 'POST') return createPet(req, res);
  fail(res, 405, 'method_not_allowed', `${req.method} is not allowed on ${path}.`, { allow: getPetId === null ? 'GET, POST' : 'GET' });
});
// The service closes idle keep-alive connections after 5 s; node:http's default is the same.
server.keepAliveTimeout = 5_000;
server.listen(Number(process.env.PORT ?? 3001), process.env.HOST ?? '127.0.0.1');

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => {
    server.close(() => (db.close(), process.exit(0)));
    server.closeIdleConnections();
  });
}
