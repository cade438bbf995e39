import { readTextTable } from '@petstore/testing';
import { KEY, reply, runCli } from '../testing/run-cli';

const BASE = 'http://localhost:3000/v1';
const rex = { id: 1, name: 'Rex', categoryId: 3, status: 'available' };
const bo = { id: 2, name: 'Bo', categoryId: 4, status: 'pending' };
const next = (cursor: string) => ({ link: `<${BASE}/pets?limit=1&cursor=${cursor}>; rel="next"` });
const DEPRECATED = {
  deprecation: '@1767225600',
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  link: '</v1/pets>; rel="successor-version"',
};

describe('pets', () => {
  describe('list', () => {
    it('prints one page as a table and exits 0', async () => {
      const sut = await runCli(['pets', 'list'], { responses: [reply(200, [rex, bo])] });

      expect(sut.code).toBe(0);
      // The interface's fields first, in its order; a field added later is a column after them.
      expect(sut.stdout.split('\n')[0]).toMatch(/^ID {2}NAME {2}CATEGORY {2}STATUS\b/);
      expect(readTextTable(sut.stdout)).toEqual([
        { ID: '1', NAME: 'Rex', CATEGORY: '3', STATUS: 'available' },
        { ID: '2', NAME: 'Bo', CATEGORY: '4', STATUS: 'pending' },
      ]);
      expect(sut.stderr).toBe('');
      expect(sut.sent).toEqual([expect.objectContaining({ method: 'GET', url: `${BASE}/pets` })]);
      expect(sut.sent[0].headers.authorization).toBe(`Bearer ${KEY}`);
    });

    it('sends --status and --limit as the query', async () => {
      const sut = await runCli(['pets', 'list', '--status', 'pending', '--limit', '5'], { responses: [reply(200, [bo])] });

      expect(sut.code).toBe(0);
      expect(sut.sent[0].url).toBe(`${BASE}/pets?limit=5&status=pending`);
    });

    it('sends --name and --category as the name and categoryId filters', async () => {
      const sut = await runCli(['pets', 'list', '--name', 'Mr Rex', '--category', '3', '--status', 'available'], { responses: [reply(200, [rex])] });

      expect(sut.code).toBe(0);
      expect(sut.sent[0].url).toBe(`${BASE}/pets?status=available&name=Mr%20Rex&categoryId=3`);
    });

    it('keeps --name and --category on every page with --all', async () => {
      const sut = await runCli(['pets', 'list', '--all', '--name', 'rex', '--category', '3', '--limit', '1', '--json'], {
        responses: [reply(200, [rex], next('c2')), reply(200, [bo])],
      });

      expect(sut.code).toBe(0);
      expect(sut.sent.map((request) => request.url)).toEqual([
        `${BASE}/pets?limit=1&name=rex&categoryId=3`,
        `${BASE}/pets?limit=1&name=rex&categoryId=3&cursor=c2`,
      ]);
    });

    it('names on stderr the --cursor of the next page, and --all, when the page has a next link', async () => {
      const sut = await runCli(['pets', 'list', '--limit', '1'], { responses: [reply(200, [rex], next('c2'))] });

      expect(sut.code).toBe(0);
      expect(readTextTable(sut.stdout)).toEqual([{ ID: '1', NAME: 'Rex', CATEGORY: '3', STATUS: 'available' }]);
      expect(sut.stderr).toBe('more pets: repeat this command with --cursor c2 for the next page, or with --all for every page\n');
    });

    it('prints only a JSON array on stdout with --json, and the same hint on stderr', async () => {
      const sut = await runCli(['pets', 'list', '--json'], { responses: [reply(200, [rex], next('c2'))] });

      expect(sut.code).toBe(0);
      expect(JSON.parse(sut.stdout)).toEqual([rex]);
      expect(sut.stderr).toBe('more pets: repeat this command with --cursor c2 for the next page, or with --all for every page\n');
    });

    it('says nothing on stderr after the last page', async () => {
      const sut = await runCli(['pets', 'list', '--json'], { responses: [reply(200, [rex])] });

      expect(sut.stderr).toBe('');
    });

    it('continues from the page that named --cursor, with the same --status and --limit', async () => {
      const sut = await runCli(['pets', 'list', '--status', 'pending', '--limit', '1', '--cursor', 'c2'], { responses: [reply(200, [bo])] });

      expect(sut.code).toBe(0);
      expect(sut.sent[0].url).toBe(`${BASE}/pets?limit=1&status=pending&cursor=c2`);
      expect(readTextTable(sut.stdout)).toEqual([{ ID: '2', NAME: 'Bo', CATEGORY: '4', STATUS: 'pending' }]);
    });

    it('follows every page with --all, using --limit as the page size', async () => {
      const sut = await runCli(['pets', 'list', '--all', '--limit', '1', '--json'], {
        responses: [reply(200, [rex], next('c2')), reply(200, [bo])],
      });

      expect(sut.code).toBe(0);
      expect(JSON.parse(sut.stdout)).toEqual([rex, bo]);
      expect(sut.sent.map((request) => request.url)).toEqual([`${BASE}/pets?limit=1`, `${BASE}/pets?limit=1&cursor=c2`]);
    });

    it('prints every page as one table with --all, without the hint', async () => {
      const sut = await runCli(['pets', 'list', '--all'], { responses: [reply(200, [rex], next('c2')), reply(200, [bo])] });

      expect(sut.stdout.split('\n')).toHaveLength(4);
      expect(sut.stderr).toBe('');
    });

    it.each([
      ['--limit must be a whole number from 1 to 100 (got 0)', ['--limit', '0']],
      ['--limit must be a whole number from 1 to 100 (got 101)', ['--limit', '101']],
      ['--limit must be a whole number from 1 to 100 (got ten)', ['--limit', 'ten']],
      ['--limit must be a whole number from 1 to 100 (got 1e3)', ['--limit', '1e3']],
      ['--limit must be a whole number from 1 to 100 (got "")', ['--limit', '', '--all']],
      ['--status must be one of available, pending, sold (got lost)', ['--status', 'lost']],
      ['--name must not be empty or only whitespace (got "")', ['--name', '']],
      ['--name must be at most 100 characters (it has 101)', ['--name', 'x'.repeat(101)]],
      ['--name must not contain control characters (U+0000 to U+001F, U+007F to U+009F) (got "a\\tb")', ['--name', 'a\tb']],
      ['--category must be a whole number from 1 to 9007199254740991 (got 0)', ['--category', '0']],
      ['--category must be a whole number from 1 to 9007199254740991 (got two)', ['--category', 'two']],
      ['--cursor must contain only the characters A-Z, a-z, 0-9, _ and - (got p1.2)', ['--cursor', 'p1.2']],
      ['--cursor must not be empty or only whitespace (got " ")', ['--cursor', ' ']],
      ['--cursor must be at most 40 characters (it has 41)', ['--cursor', 'c'.repeat(41)]],
      ["option '--cursor <cursor>' cannot be used with option '--all'", ['--cursor', 'c2', '--all']],
      ["too many arguments for 'list'. Expected 0 arguments but got 1: surplus.", ['surplus']],
    ])('exits 2 without calling the service: %s', async (why, args) => {
      const sut = await runCli(['pets', 'list', ...args]);

      expect(sut.code).toBe(2);
      expect(sut.stderr).toBe(`error: ${why}\nRun 'petstore pets list --help' for usage.\n`);
      expect(sut.stdout).toBe('');
      expect(sut.sent).toEqual([]);
    });
  });

  describe('add', () => {
    it('posts the new pet and prints it as a table', async () => {
      const sut = await runCli(['pets', 'add', '--name', 'Bo', '--category', '4', '--status', 'pending'], {
        responses: [reply(201, bo)],
      });

      expect(sut.code).toBe(0);
      expect(sut.sent).toEqual([
        expect.objectContaining({ method: 'POST', url: `${BASE}/pets`, body: { name: 'Bo', categoryId: 4, status: 'pending' } }),
      ]);
      expect(readTextTable(sut.stdout)).toEqual([{ ID: '2', NAME: 'Bo', CATEGORY: '4', STATUS: 'pending' }]);
    });

    it('sends --idempotency-key as the Idempotency-Key header', async () => {
      const sut = await runCli(['pets', 'add', '--name', 'Rex', '--category', '3', '--idempotency-key', 'order-42'], {
        responses: [reply(201, rex)],
      });

      expect(sut.code).toBe(0);
      expect(sut.sent[0].headers['idempotency-key']).toBe('order-42');
    });

    it('leaves the status to the service when --status is not given, and prints the object with --json', async () => {
      const sut = await runCli(['pets', 'add', '--name', 'Rex', '--category', '3', '--json'], { responses: [reply(201, rex)] });

      expect(sut.sent[0].body).toEqual({ name: 'Rex', categoryId: 3 });
      expect(JSON.parse(sut.stdout)).toEqual(rex);
      expect(sut.stderr).toBe('');
    });

    it('exits 1 with the message of the Error body when the service refuses the pet', async () => {
      const message = 'This Idempotency-Key was used with a different body.';
      const sut = await runCli(['pets', 'add', '--name', 'Rex', '--category', '3', '--idempotency-key', 'order-42'], {
        responses: [reply(422, { code: 'idempotency_key_reused', message, status: 422 })],
      });

      expect(sut.code).toBe(1);
      expect(sut.stderr).toBe(`error: ${message} (idempotency_key_reused, HTTP 422)\n`);
      expect(sut.stdout).toBe('');
    });

    it('counts the characters of --name as the service does, in code points', async () => {
      const name = '🐈'.repeat(100);
      const sut = await runCli(['pets', 'add', '--name', name, '--category', '3'], { responses: [reply(201, { ...rex, name })] });

      expect(sut.code).toBe(0);
      expect(sut.sent[0].body).toEqual({ name, categoryId: 3 });
    });

    it.each([
      ["required option '--name <name>' not specified", ['--category', '3']],
      ["required option '--category <id>' not specified", ['--name', 'Rex']],
      ['--name must not be empty or only whitespace (got "")', ['--name', '', '--category', '3']],
      ['--name must not be empty or only whitespace (got " \\t")', ['--name', ' \t', '--category', '3']],
      ['--name must be at most 100 characters (it has 101)', ['--name', 'a'.repeat(101), '--category', '3']],
      ['--name must be at most 100 characters (it has 150)', ['--name', '🐈'.repeat(150), '--category', '3']],
      ['--category must be a whole number from 1 to 9007199254740991 (got cats)', ['--name', 'Rex', '--category', 'cats']],
      ['--category must be a whole number from 1 to 9007199254740991 (got 0)', ['--name', 'Rex', '--category', '0']],
      ['--category must be a whole number from 1 to 9007199254740991 (got 9007199254740992)', ['--name', 'Rex', '--category', '9007199254740992']],
      ['--status must be one of available, pending, sold (got lost)', ['--name', 'Rex', '--category', '3', '--status', 'lost']],
      [
        '--idempotency-key must contain only visible ASCII characters (! to ~, no spaces) (got "order 42")',
        ['--name', 'Rex', '--category', '3', '--idempotency-key', 'order 42'],
      ],
      ['--idempotency-key must be at most 255 characters (it has 256)', ['--name', 'Rex', '--category', '3', '--idempotency-key', 'k'.repeat(256)]],
    ])('exits 2 without calling the service: %s', async (why, args) => {
      const sut = await runCli(['pets', 'add', ...args]);

      expect(sut.code).toBe(2);
      expect(sut.stderr).toBe(`error: ${why}\nRun 'petstore pets add --help' for usage.\n`);
      expect(sut.sent).toEqual([]);
    });
  });

  describe('get', () => {
    it('prints the pet, with the deprecation notice on stderr', async () => {
      const sut = await runCli(['pets', 'get', '1'], { responses: [reply(200, rex, DEPRECATED)] });

      expect(sut.code).toBe(0);
      expect(sut.sent).toEqual([expect.objectContaining({ method: 'GET', url: `${BASE}/pets/1` })]);
      expect(readTextTable(sut.stdout)).toEqual([{ ID: '1', NAME: 'Rex', CATEGORY: '3', STATUS: 'available' }]);
      expect(sut.stderr).toBe(
        'petstore: "petstore pets get" is deprecated by the service and stops working after 2030-12-05; use "petstore pets list" instead.\n',
      );
    });

    it('prints only the object on stdout with --json', async () => {
      const sut = await runCli(['pets', 'get', '1', '--json'], { responses: [reply(200, rex, DEPRECATED)] });

      expect(JSON.parse(sut.stdout)).toEqual(rex);
      expect(sut.stderr).toMatch(/deprecated/);
    });

    it('exits 1 when there is no such pet', async () => {
      const sut = await runCli(['pets', 'get', '9'], {
        responses: [reply(404, { code: 'not_found', message: 'No pet has id 9.', status: 404 }, DEPRECATED)],
      });

      expect(sut.code).toBe(1);
      expect(sut.stderr).toMatch(/^error: No pet has id 9\. \(not_found, HTTP 404\)$/m);
      expect(sut.stdout).toBe('');
    });

    it.each(['rex', '1.5', '-1', '0', '9007199254740992'])('exits 2 without calling the service for the id %j', async (id) => {
      const sut = await runCli(['pets', 'get', id]);

      expect(sut.code).toBe(2);
      expect(sut.stderr).toBe(`error: id must be a whole number from 1 to 9007199254740991 (got ${id})\nRun 'petstore pets get --help' for usage.\n`);
      expect(sut.sent).toEqual([]);
    });
  });
});
