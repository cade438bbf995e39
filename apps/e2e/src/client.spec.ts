import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import {
  BadRequestError,
  ConnectionError,
  type NewPet,
  NotFoundError,
  type Pet,
  PetStatus,
  PetstoreClient,
  type PetstoreClientOptions,
  type PetstoreError,
  TimeoutError,
  UnauthorizedError,
} from '@petstore/client';
import { GET_PET_SUNSET } from '@petstore/contract';
import { freePort, type NodeProcess, spawnService, waitUntilLive } from '@petstore/testing';
import { TEST_KEY } from './support/test-key';

// The service names a request with a random UUID unless the client gave an id, which this client does not.
const REQUEST_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const WRONG_KEY = 'pk_e2e_wrong_key_0f9e8d7c6b5a';


describe(PetstoreClient.name, () => {
  let dir: string;
  let service: NodeProcess;
  // Every pet this file creates, in id order: the truth that listings are held against.
  const created: Pet[] = [];

  const newClient = (options: Partial<PetstoreClientOptions> = {}) =>
    new PetstoreClient({ baseUrl: `${service.origin}/v1`, apiKey: TEST_KEY, logger: { warn: jest.fn() }, ...options });

  async function seed(sut: PetstoreClient, ...newPets: NewPet[]): Promise<Pet[]> {
    const pets: Pet[] = [];
    // One at a time, so that ids follow the order given.
    for (const newPet of newPets) pets.push(await sut.createPet(newPet));
    created.push(...pets);
    return pets;
  }

  /** Asserts that `attempt` rejects with `type`, and resolves to the error for further checks. */
  async function rejection<T extends PetstoreError>(attempt: Promise<unknown>, type: abstract new (...args: never[]) => T) {
    await expect(attempt).rejects.toBeInstanceOf(type);
    const error = (await attempt.catch((reason: unknown) => reason)) as T;
    for (const view of [error.message, String(error), JSON.stringify(error), inspect(error, { showHidden: true, depth: null })]) {
      expect(view).not.toContain(TEST_KEY);
      expect(view).not.toContain(WRONG_KEY);
    }
    return error;
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-client-'));
    service = await spawnService({ env: { API_KEYS: TEST_KEY, DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}` } });
    await waitUntilLive(service);
  });

  afterAll(async () => {
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  describe('createPet', () => {
    it('resolves to the pet with its id, available by default', async () => {
      const [pet] = await seed(newClient(), { name: 'Rex', categoryId: 1 });
      expect(pet).toEqual({ id: expect.any(Number), name: 'Rex', categoryId: 1, status: PetStatus.Available });
    });

    it('keeps the status it is given', async () => {
      const [pet] = await seed(newClient(), { name: 'Tom', categoryId: 2, status: PetStatus.Sold });
      expect(pet).toEqual({ id: expect.any(Number), name: 'Tom', categoryId: 2, status: PetStatus.Sold });
    });

    it('retries a create whose answer was lost, and the service adds the pet once', async () => {
      const sent: Array<string | undefined> = [];
      const sut = newClient({
        // The first answer is lost after the service has stored the pet, as when a connection drops.
        fetch: async (input, init) => {
          sent.push(new Headers(init?.headers).get('idempotency-key') ?? undefined);
          const response = await fetch(input, init);
          if (sent.length === 1) throw new TypeError('fetch failed: the connection was reset');
          return response;
        },
      });
      const [pet] = await seed(sut, { name: 'Lost answer', categoryId: 6 });
      expect(sent).toHaveLength(2);
      expect(sent[1]).toBe(sent[0]);
      const stored = (await newClient().listPets({ limit: 100 })).pets.filter((p) => p.name === 'Lost answer');
      expect(stored).toEqual([pet]);
    });
  });

  describe('listPets', () => {
    it('pages through one status with limit and nextCursor', async () => {
      const sut = newClient();
      const pending = { categoryId: 3, status: PetStatus.Pending };
      await seed(sut, { name: 'P1', ...pending }, { name: 'P2', ...pending }, { name: 'P3', ...pending });
      const expected = created.filter((pet) => pet.status === PetStatus.Pending);

      const first = await sut.listPets({ limit: 2, status: PetStatus.Pending });
      expect(first).toEqual({ pets: expected.slice(0, 2), nextCursor: expect.any(String) });
      const rest = await sut.listPets({ limit: 100, status: PetStatus.Pending, cursor: first.nextCursor ?? undefined });
      expect(rest).toEqual({ pets: expected.slice(2), nextCursor: null });
    });
  });

  describe('iteratePets', () => {
    it('yields every pet exactly once, in id order, across pages', async () => {
      const urls: string[] = [];
      const sut = newClient({
        fetch: (input, init) => {
          urls.push(String(input));
          return fetch(input, init);
        },
      });
      await seed(sut, ...Array.from({ length: 25 }, (_, i) => ({ name: `Pet ${i + 1}`, categoryId: 4 })));
      urls.length = 0;

      const yielded: Pet[] = [];
      for await (const pet of sut.iteratePets({ pageSize: 10 })) yielded.push(pet);

      expect(yielded).toEqual([...created].sort((a, b) => a.id - b.id));
      expect(urls.length).toBe(Math.ceil(created.length / 10));
      expect(urls.slice(1).every((url) => new URL(url).searchParams.has('cursor'))).toBe(true);
    });
  });

  describe('getPet', () => {
    it('resolves to the pet and warns once, naming the sunset', async () => {
      const logger = { warn: jest.fn() };
      const sut = newClient({ logger });
      const [pet] = await seed(sut, { name: 'Old', categoryId: 5 });

      expect(await sut.getPet(pet.id)).toEqual(pet);
      expect(await sut.getPet(pet.id)).toEqual(pet);
      expect(logger.warn).toHaveBeenCalledTimes(1);
      expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining(GET_PET_SUNSET.toUTCString()));
      expect(logger.warn.mock.calls[0][0]).toContain('getPet');
    });
  });

  describe('errors', () => {
    it('throws BadRequestError for an invalid pet, naming the field', async () => {
      const error = await rejection(newClient().createPet({ name: '', categoryId: 1 }), BadRequestError);
      expect(error).toMatchObject({ status: 400, code: 'validation_failed', name: 'BadRequestError' });
      expect(error.message).toMatch(/\bname\b/);
      expect(error.requestId).toMatch(REQUEST_ID);
      expect(error.body).toEqual({ code: 'validation_failed', status: 400, message: error.message });
    });

    it('throws UnauthorizedError for a key the service does not accept', async () => {
      const error = await rejection(newClient({ apiKey: WRONG_KEY }).listPets(), UnauthorizedError);
      expect(error).toMatchObject({ status: 401, code: 'unauthorized' });
      expect(error.requestId).toMatch(REQUEST_ID);
    });

    it('throws NotFoundError for an absent id', async () => {
      const error = await rejection(newClient().getPet(987_654_321), NotFoundError);
      expect(error).toMatchObject({ status: 404, code: 'not_found' });
      expect(error.requestId).toMatch(REQUEST_ID);
    });

    it('throws ConnectionError when nothing listens', async () => {
      const port = await freePort();
      const sut = newClient({ baseUrl: `http://127.0.0.1:${port}/v1`, maxRetries: 0 });
      const error = await rejection(sut.listPets(), ConnectionError);
      expect(error.message).toContain(`127.0.0.1:${port}`);
    });

    describe('against a server that never answers', () => {
      let silent: Server;

      beforeAll(async () => {
        silent = createServer(() => undefined);
        await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      });
      afterAll(async () => {
        // The client has given up on its request; the server must not wait for that socket.
        silent.closeAllConnections();
        await new Promise((resolve) => silent.close(resolve));
      });

      it('throws TimeoutError after timeoutMs', async () => {
        const { port } = silent.address() as AddressInfo;
        const sut = newClient({ baseUrl: `http://127.0.0.1:${port}/v1`, timeoutMs: 200, maxRetries: 0 });
        // The server never answers: without its own timeout the call would never end.
        const error = await rejection(sut.listPets(), TimeoutError);
        expect(error.timeoutMs).toBe(200);
      });
    });
  });

  it('keeps the API key out of inspect and JSON', () => {
    const sut = newClient();
    expect(inspect(sut, { showHidden: true, depth: null })).not.toContain(TEST_KEY);
    expect(JSON.stringify(sut)).not.toContain(TEST_KEY);
  });
});
