import type { Pet } from '@petstore/contract';

/** A request the page sent, as the tests' fetch saw it. */
export interface SentRequest {
  method: string;
  url: URL;
  headers: Headers;
  body?: unknown;
  /** The request's signal: aborted when the page gave up on it. */
  signal?: AbortSignal;
}

type Answer = Response | Promise<Response>;

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** An Error body as the service writes it. */
export const refusal = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
  json(status, { code, message, status }, headers);

/** As a browser's fetch does: a request aborted before its answer rejects with an AbortError. */
function abortable(answer: Answer, signal: AbortSignal | undefined): Promise<Response> {
  if (!signal) return Promise.resolve(answer);
  return new Promise<Response>((resolve, reject) => {
    const onAbort = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(answer).then(resolve, reject);
  });
}

/**
 * The pets of the page's component tests, answered as the service answers `listPets` and `createPet`. `next`
 * overrides the next answer, for refusals and answers that are held back. Every request is recorded.
 */
export class PetService {
  readonly sent: SentRequest[] = [];
  private readonly queued: Array<() => Answer> = [];
  private nextId: number;

  constructor(readonly pets: Pet[] = []) {
    this.nextId = Math.max(0, ...pets.map((pet) => pet.id)) + 1;
  }

  /** The answer to the next request, instead of the service's. */
  next(answer: () => Answer): this {
    this.queued.push(answer);
    return this;
  }

  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input));
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    this.sent.push({ method: init.method ?? 'GET', url, headers: new Headers(init.headers), body, signal: init.signal ?? undefined });
    const queued = this.queued.shift();
    const answer = queued ? queued() : init.method === 'POST' ? this.create(body as Omit<Pet, 'id'>) : this.list(url);
    return abortable(answer, init.signal ?? undefined);
  };

  private list(url: URL): Response {
    const query = (name: string) => url.searchParams.get(name) ?? undefined;
    const after = Number(query('cursor') ?? 0);
    const limit = Number(query('limit') ?? 20);
    const [status, name, category] = [query('status'), query('name')?.toLowerCase(), query('categoryId')];
    // The interface's filters, written apart from the page's own so that the page is not checked against itself: a
    // name anywhere in the pet's name, whatever the case.
    const matching = this.pets.filter(
      (pet) =>
        pet.id > after &&
        (status === undefined || pet.status === status) &&
        (category === undefined || pet.categoryId === Number(category)) &&
        (name === undefined || pet.name.toLowerCase().includes(name)),
    );
    const page = matching.slice(0, limit);
    const more = matching.length > limit;
    const next = new URL(url);
    next.searchParams.set('cursor', String(page.at(-1)?.id));
    return json(200, page, more ? { link: `<${next.href}>; rel="next"` } : {});
  }

  private create(pet: Omit<Pet, 'id'>): Response {
    const created = { status: 'available', ...pet, id: this.nextId++ } as Pet;
    this.pets.push(created);
    return json(201, created, { location: `/v1/pets/${created.id}` });
  }
}
