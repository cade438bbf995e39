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
      expect(sut.stdout).toBe('ID  NAME  CATEGORY  STATUS\n1   Rex   3         available\n2   Bo    4         pending\n');
      expect(sut.stderr).toBe('');
      expect(sut.sent).toEqual([expect.objectContaining({ method: 'GET', url: `${BASE}/pets` })]);
      expect(sut.sent[0].headers.authorization).toBe(`Bearer ${KEY}`);
    });

    it('sends --status and --limit as the query', async () => {
      const sut = await runCli(['pets', 'list', '--status', 'pending', '--limit', '5'], { responses: [reply(200, [bo])] });

      expect(sut.code).toBe(0);
      expect(sut.sent[0].url).toBe(`${BASE}/pets?limit=5&status=pending`);
    });

    it('says on stderr that there are more pets when the page has a next link', async () => {
      const sut = await runCli(['pets', 'list', '--limit', '1'], { responses: [reply(200, [rex], next('c2'))] });

      expect(sut.code).toBe(0);
      expect(sut.stdout).toBe('ID  NAME  CATEGORY  STATUS\n1   Rex   3         available\n');
      expect(sut.stderr).toBe('more pets: use --all\n');
    });

    it('prints a JSON array and nothing else with --json', async () => {
      const sut = await runCli(['pets', 'list', '--json'], { responses: [reply(200, [rex], next('c2'))] });

      expect(sut.code).toBe(0);
      expect(JSON.parse(sut.stdout)).toEqual([rex]);
      expect(sut.stderr).toBe('');
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
      [['--limit', 'ten']],
      [['--limit', '0']],
      [['--status', 'lost']],
      [['surplus']],
    ])('exits 2 without calling the service for %j', async (args) => {
      const sut = await runCli(['pets', 'list', ...args]);

      expect(sut.code).toBe(2);
      expect(sut.stderr).toMatch(/^error: /);
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
      expect(sut.stdout).toBe('ID  NAME  CATEGORY  STATUS\n2   Bo    4         pending\n');
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
      const sut = await runCli(['pets', 'add', '--name', ' ', '--category', '3'], {
        responses: [reply(400, { code: 'validation_failed', message: 'Invalid request body: name is blank.', status: 400 })],
      });

      expect(sut.code).toBe(1);
      expect(sut.stderr).toBe('error: Invalid request body: name is blank. (validation_failed, HTTP 400)\n');
      expect(sut.stdout).toBe('');
    });

    it.each([
      [['--category', '3'], /required option '--name <name>'/],
      [['--name', 'Rex'], /required option '--category <id>'/],
      [['--name', 'Rex', '--category', 'cats'], /'cats' is invalid/],
      [['--name', 'Rex', '--category', '3', '--status', 'lost'], /Allowed choices are available, pending, sold/],
    ])('exits 2 without calling the service for %j', async (args, message) => {
      const sut = await runCli(['pets', 'add', ...args]);

      expect(sut.code).toBe(2);
      expect(sut.stderr).toMatch(message);
      expect(sut.sent).toEqual([]);
    });
  });

  describe('get', () => {
    it('prints the pet, with the deprecation notice on stderr', async () => {
      const sut = await runCli(['pets', 'get', '1'], { responses: [reply(200, rex, DEPRECATED)] });

      expect(sut.code).toBe(0);
      expect(sut.sent).toEqual([expect.objectContaining({ method: 'GET', url: `${BASE}/pets/1` })]);
      expect(sut.stdout).toBe('ID  NAME  CATEGORY  STATUS\n1   Rex   3         available\n');
      expect(sut.stderr).toBe(
        'petstore: getPet is deprecated by the service and will be removed after Thu, 05 Dec 2030 00:00:00 GMT; use /v1/pets instead.\n',
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

    it.each([['rex'], ['1.5'], ['-1']])('exits 2 without calling the service for the id %j', async (id) => {
      const sut = await runCli(['pets', 'get', id]);

      expect(sut.code).toBe(2);
      expect(sut.stderr).toMatch(/argument 'id'/);
      expect(sut.sent).toEqual([]);
    });
  });
});
