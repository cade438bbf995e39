import { LIST_LIMIT, type Pet } from '@petstore/contract';
import { API_KEY } from './service';

export interface Walk {
  /** In the order the pages gave them: by id ascending. */
  pets: Pet[];
  /** The last page's URL: fetched again, the walk continues where it stopped. */
  lastPage: string;
}

/** Every pet, following the `next` links of listPets from the first page. */
export function readAllPets(baseUrl: string): Promise<Walk> {
  return walk(`${baseUrl}/v1/pets?limit=${LIST_LIMIT.max}`);
}

/** The pets stored since `previous` ended: ids are increasing, so they are on its last page or after it. */
export async function readPetsAfter(previous: Walk): Promise<Pet[]> {
  const lastId = previous.pets.length ? previous.pets[previous.pets.length - 1].id : 0;
  return (await walk(previous.lastPage)).pets.filter((pet) => pet.id > lastId);
}

async function walk(firstPage: string): Promise<Walk> {
  const pets: Pet[] = [];
  let page = firstPage;
  for (;;) {
    const response = await fetch(page, { headers: { authorization: `Bearer ${API_KEY}` }, signal: AbortSignal.timeout(15_000) });
    const body = await response.text();
    if (response.status !== 200) throw new Error(`GET ${page} answered ${response.status}: ${body}`);
    pets.push(...(JSON.parse(body) as Pet[]));
    const next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
    if (!next) return { pets, lastPage: page };
    page = next;
  }
}
