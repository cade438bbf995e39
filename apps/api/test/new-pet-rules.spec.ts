import fc from 'fast-check';
import { newPetProblems, PET_FIELDS, sentFieldEntries } from '@petstore/contract';
import { fieldText } from './support/arbitraries';
import { JSON_AUTH, startApp, type TestApp } from './support/test-app';

// One set of rules: a form that applies the contract's newPetProblems (as the storefront does) and the service agree on
// every new pet, valid or not, and in the same words. The fields are the property tests' generators, parsed to the
// values a form holds and sent as the client sends them (JSON.stringify).

const SEED = 20261127;
const parsed = (text: string): unknown => JSON.parse(text);
const sent = sentFieldEntries(PET_FIELDS);
const newPet = fc.record(Object.fromEntries(sent.map(([field, spec]) => [field, fieldText(spec).map(parsed)])), {
  requiredKeys: sent.filter(([, spec]) => !spec.optional).map(([field]) => field),
});

describe('the rules of a new pet, in the contract and in the service', () => {
  let sut: TestApp;
  beforeAll(async () => {
    sut = await startApp();
  });
  afterAll(() => sut.close());

  it('agree on every generated pet: accepted by both, or refused by both in the same words', async () => {
    let accepted = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(newPet, async (pet) => {
        const problems = Object.values(newPetProblems(pet));
        const response = await fetch(`${sut.origin}/v1/pets`, { method: 'POST', headers: JSON_AUTH, body: JSON.stringify(pet) });
        const body = (await response.json()) as { message?: string };
        if (problems.length === 0) {
          accepted += 1;
          expect(response.status).toBe(201);
        } else {
          refused += 1;
          expect(response.status).toBe(400);
          expect(body.message).toBe(`Invalid request body: ${problems.join('; ')}.`);
        }
      }),
      { seed: SEED, numRuns: 600 },
    );
    // Both kinds were tried, many times each: agreement on one side alone would prove nothing.
    expect(Math.min(accepted, refused)).toBeGreaterThan(50);
  }, 180_000);
});
