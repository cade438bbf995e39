import { ConnectionError, LOCAL_BASE_URL } from '@petstore/client';
import type { PetstoreApi } from './context';
import { CLI_VERSION, run } from './program';
import { KEY, reply, runCli } from './testing/run-cli';

const io = () => ({ stdout: jest.fn(), stderr: jest.fn(), env: { PETSTORE_API_KEY: KEY } });

describe(run.name, () => {
  describe('configuration', () => {
    it('uses the local address and the key from PETSTORE_API_KEY by default', async () => {
      const sut = await runCli(['pets', 'list'], { responses: [reply(200, [])] });

      expect(sut.clientOptions).toEqual([expect.objectContaining({ baseUrl: LOCAL_BASE_URL, apiKey: KEY })]);
      expect(sut.sent[0].url).toBe(`${LOCAL_BASE_URL}/pets`);
    });

    it('takes the address from PETSTORE_URL', async () => {
      const sut = await runCli(['pets', 'list'], {
        env: { PETSTORE_URL: 'https://env.example/v1', PETSTORE_API_KEY: KEY },
        responses: [reply(200, [])],
      });

      expect(sut.sent[0].url).toBe('https://env.example/v1/pets');
    });

    it('prefers --url and --api-key to the environment, before or after the subcommand', async () => {
      const env = { PETSTORE_URL: 'https://env.example/v1', PETSTORE_API_KEY: 'pk_env_key_0123456789' };
      const before = await runCli(['--url', 'https://flag.example/v1', '--api-key', KEY, 'pets', 'list'], { env, responses: [reply(200, [])] });
      const after = await runCli(['pets', 'list', '--url', 'https://flag.example/v1', '--api-key', KEY], { env, responses: [reply(200, [])] });

      for (const sut of [before, after]) {
        expect(sut.sent[0].url).toBe('https://flag.example/v1/pets');
        expect(sut.sent[0].headers.authorization).toBe(`Bearer ${KEY}`);
      }
    });

    it('is a usage error, before any request, when there is no API key', async () => {
      const sut = await runCli(['pets', 'list'], { env: {} });

      expect(sut.code).toBe(2);
      expect(sut.stderr).toBe("error: no API key: set PETSTORE_API_KEY to your key (or pass --api-key)\nRun 'petstore pets list --help' for usage.\n");
      expect(sut.clientOptions).toEqual([]);
    });

    it.each([
      [['--url', 'localhost'], {}],
      [[], { PETSTORE_URL: 'ftp://example.com/v1' }],
    ])('is a usage error when the address is not an http(s) URL (%j, %j)', async (args, env) => {
      const sut = await runCli([...args, 'pets', 'list'], { env: { PETSTORE_API_KEY: KEY, ...env } });

      expect(sut.code).toBe(2);
      expect(sut.stderr).toMatch(/^error: .*is invalid/);
      expect(sut.sent).toEqual([]);
    });
  });

  describe('exit codes', () => {
    it('is 1 for an API error, with the Error body on stderr', async () => {
      const sut = await runCli(['pets', 'list'], {
        responses: [reply(503, { code: 'service_unavailable', message: 'The service is stopping.', status: 503 })],
      });

      expect(sut.code).toBe(1);
      expect(sut.stderr).toBe('error: The service is stopping. (service_unavailable, HTTP 503)\n');
    });

    it('is 1 when the service cannot be reached', async () => {
      const sut = await runCli(['pets', 'list'], { responses: [new TypeError('fetch failed')] });

      expect(sut.code).toBe(1);
      expect(sut.stderr).toBe('error: Could not reach http://localhost:3000: fetch failed\n');
      expect(sut.stdout).toBe('');
    });

    it.each([
      [['pets', 'adopt'], "unknown command 'adopt'", 'petstore pets --help'],
      [['pets', 'list', '--verbose'], "unknown option '--verbose'", 'petstore pets list --help'],
      [['pets', 'add', '--name', 'Rex'], "required option '--category <id>' not specified", 'petstore pets add --help'],
      [['--url'], "option '--url <url>' argument missing", 'petstore --help'],
    ])('is 2 for the usage error %j, followed by the help command of the command that refused it', async (argv, why, help) => {
      const sut = await runCli(argv);

      expect(sut.code).toBe(2);
      expect(sut.stderr).toBe(`error: ${why}\nRun '${help}' for usage.\n`);
    });

    it('is 2, with the help on stderr, when no command is given', async () => {
      const sut = await runCli([]);

      expect(sut.code).toBe(2);
      expect(sut.stdout).toBe('');
      expect(sut.stderr).toMatch(/^Usage: petstore /);
    });

    it.each([[['--help']], [['pets', '--help']], [['pets', 'list', '--help']], [['help', 'pets', 'add']]])(
      'is 0 for %j, with the help on stdout',
      async (argv) => {
        const sut = await runCli(argv);

        expect(sut.code).toBe(0);
        expect(sut.stdout).toMatch(/^Usage: petstore/);
        expect(sut.stderr).toBe('');
      },
    );

    it('is 0 for --version, which prints the version', async () => {
      const sut = await runCli(['--version']);

      expect(sut.code).toBe(0);
      expect(sut.stdout).toBe(`${CLI_VERSION}\n`);
    });

    it('lets an unexpected failure through instead of passing it off as an API error', async () => {
      const failure = new RangeError('bug');

      await expect(run(['pets', 'list'], io(), () => { throw failure; })).rejects.toBe(failure);
    });
  });

  describe('the API key', () => {
    it('names the environment variables and exit codes in the help, never a key', async () => {
      const sut = await runCli(['--help']);

      expect(sut.stdout).toMatch(/PETSTORE_URL/);
      expect(sut.stdout).toMatch(/PETSTORE_API_KEY/);
      expect(sut.stdout).toMatch(/Exit codes: 0 success, 1 API or network error, 2 usage error/);
      expect(sut.stdout).not.toContain(KEY);
    });

    it.each([
      ['the environment', ['pets', 'get', KEY], { PETSTORE_API_KEY: KEY }],
      ['--api-key', ['--api-key', KEY, 'pets', 'get', KEY], {}],
      ['--api-key after the option it was typed into', ['pets', 'list', '--limit', KEY, '--api-key', KEY], {}],
    ])('is redacted from errors that echo it back when it comes from %s', async (_source, argv, env) => {
      const sut = await runCli(argv, { env });

      expect(sut.code).toBe(2);
      expect(sut.stderr).toMatch(/^error: .+ \(got \[redacted\]\)\n/);
      expect(sut.stderr).not.toContain(KEY);
    });

    it('names PETSTORE_API_KEY when the service refuses the key from it (401), not the Authorization header', async () => {
      const sut = await runCli(['pets', 'list'], {
        responses: [reply(401, { code: 'unauthorized', message: 'A valid API key is required: send it as "Authorization: Bearer <key>".', status: 401 })],
      });

      expect(sut.code).toBe(1);
      expect(sut.stderr).toBe(
        'error: the service refused the API key in PETSTORE_API_KEY (unauthorized, HTTP 401); set PETSTORE_API_KEY to a valid key (or pass one with --api-key)\n',
      );
    });

    it('names --api-key as well as PETSTORE_API_KEY when the refused key came from --api-key', async () => {
      const sut = await runCli(['pets', 'list', '--api-key', KEY], {
        env: {},
        responses: [reply(401, { code: 'unauthorized', message: 'A valid API key is required.', status: 401 })],
      });

      expect(sut.code).toBe(1);
      expect(sut.stderr).toBe(
        'error: the service refused the API key passed with --api-key (unauthorized, HTTP 401); pass a valid key, or set PETSTORE_API_KEY to one and leave --api-key out\n',
      );
    });

    it('names the scope the key lacks for the operation of the command (403)', async () => {
      const sut = await runCli(['pets', 'add', '--name', 'Rex', '--category', '3'], {
        responses: [reply(403, { code: 'insufficient_scope', message: 'This API key does not hold the "pets:write" scope.', status: 403 })],
      });

      expect(sut.code).toBe(1);
      expect(sut.stderr).toBe(
        "error: the API key in PETSTORE_API_KEY does not hold the pets:write scope that 'petstore pets add' needs (insufficient_scope, HTTP 403); use a key that holds pets:write\n",
      );
    });

    it('never appears in output, whatever the outcome', async () => {
      const outcomes = [
        await runCli(['pets', 'list'], { responses: [reply(200, [{ id: 1, name: 'Rex', categoryId: 1, status: 'sold' }])] }),
        await runCli(['pets', 'list', '--json'], { responses: [reply(200, [])] }),
        await runCli(['pets', 'list'], { responses: [new TypeError('fetch failed', { cause: new Error(`bad ${KEY}`) })] }),
        await runCli(['pets', 'list'], { responses: [reply(401, { code: 'unauthorized', message: 'No.', status: 401 })] }),
        await runCli(['--api-key', KEY, 'pets', 'list', '--limit', KEY]),
      ];

      for (const { stdout, stderr } of outcomes) expect(stdout + stderr).not.toContain(KEY);
    });
  });

  it('reports a ConnectionError from any client, fake or real, as exit code 1', async () => {
    const out = io();
    const client: PetstoreApi = {
      listPets: () => Promise.reject(new ConnectionError('Could not reach the service.')),
      iteratePets: jest.fn(),
      createPet: jest.fn(),
      getPet: jest.fn(),
      events: jest.fn(),
    };

    const code = await run(['pets', 'list'], out, () => client);

    expect(code).toBe(1);
    expect(out.stderr).toHaveBeenCalledWith('error: Could not reach the service.\n');
  });
});
