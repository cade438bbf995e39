import fc from 'fast-check';
import { type Pet, PetStatus } from '@petstore/contract';
import { alwaysServing } from '../../../test/support/pet-store-contract';
import { Metrics } from '../metrics/metrics';
import { PetStore } from './pet.store';
import type { PetPageQuery } from './pet-store-requests';
import { type PageDialect, pageStatementOf, statementKey } from './sql/pet-page-sql';
import type { PetSql } from './sql/pet-sql';
import { POSTGRES_PAGES } from './sql/postgres-pet-sql';
import { SQLITE_PAGES } from './sql/sqlite-pet-sql';

// The store's reads on either database under random interleavings: many different pages and ids asked for at once,
// beside creates, with a scheduler deciding in what order the database answers. Each answer must be the one the read
// would get alone at some moment between its asking and its answer (it may see creates that commit meanwhile, never
// miss one that committed before it was asked, nor be another question's answer).

const STATUSES = [PetStatus.Available, PetStatus.Pending, PetStatus.Sold];
const NAMES = ['rex', 'Rexa', 'max', 'maxine', 'x"y'];

/** The model: what a page holds among `pets` (in id order), asked alone. */
const pageOf = (pets: readonly Pet[], { filters: { status, categoryId, name }, afterId, take }: PetPageQuery) =>
  pets
    .filter((pet) => pet.id > afterId)
    .filter((pet) => (status === undefined || pet.status === status) && (categoryId === undefined || pet.categoryId === categoryId))
    .filter((pet) => name === undefined || pet.name.toLowerCase().includes(name.toLowerCase()))
    .slice(0, take);

const newPet = fc.record({ name: fc.constantFrom(...NAMES), categoryId: fc.integer({ min: 1, max: 3 }), status: fc.constantFrom(...STATUSES) });
const pageQuery: fc.Arbitrary<PetPageQuery> = fc.record({
  filters: fc.record(
    {
      status: fc.constantFrom(...STATUSES),
      categoryId: fc.integer({ min: 1, max: 3 }),
      name: fc.constantFrom('r', 'REX', 'max', 'xine', 'x"y', 'zzz'),
    },
    { requiredKeys: [] },
  ),
  // Few places and sizes, so that questions that differ only in their filters meet often.
  afterId: fc.constantFrom(0, 1, 3),
  take: fc.constantFrom(2, 8),
});
// Pages are picked from a few questions per run, so that equal ones meet as often as different ones.
const step = fc.oneof(
  { weight: 6, arbitrary: fc.nat({ max: 3 }).map((question) => ({ page: question })) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 14 }).map((id) => ({ id })) },
  { weight: 4, arbitrary: newPet.map((pet) => ({ create: pet })) },
);

describe(PetStore.name, () => {
  it.each([
    ['SQLite', SQLITE_PAGES],
    ['PostgreSQL', POSTGRES_PAGES],
  ])("answers every read with its own answer under any interleaving, its pages keyed by %s's statements", async (_, pages: PageDialect) => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.constantFrom(1, 2), fc.array(newPet, { maxLength: 3 }), fc.array(pageQuery, { minLength: 4, maxLength: 4 }), fc.array(step, { minLength: 1, maxLength: 30 }), async (s, slots, seeded, questions, steps) => {
        /** The table, one version per create. */
        const versions: Pet[][] = [seeded.map((pet, index) => ({ ...pet, id: index + 1 }))];
        const latest = () => versions[versions.length - 1];
        // A statement reads the table as it is when it starts (the earliest a database may), and answers later.
        const answerLater = <T>(answer: T) => s.schedule(Promise.resolve(answer));
        // The database answers the question each statement was made from: a read handed another statement's answer
        // (two questions under one key) gets another question's page.
        const statementOf = pageStatementOf(pages);
        const asked = new Map(questions.map((question) => [statementKey(statementOf(question)), question]));
        // One or two pages read at once: reads wait for a turn, and meet there, as under load.
        const sql = {
          readConnections: slots,
          pages,
          byIds: (ids: number[]) => answerLater(latest().filter((pet) => ids.includes(pet.id))),
          page: (statement) => answerLater(pageOf(latest(), asked.get(statementKey(statement)) as PetPageQuery)),
        } as Pick<PetSql, 'readConnections' | 'pages' | 'byIds' | 'page'> as PetSql;
        const sut = new PetStore(alwaysServing(), new Metrics(), sql);
        const checks = steps.map(async (request) => {
          // Each request is sent at a moment the scheduler picks, among the others' steps.
          await s.schedule(Promise.resolve());
          const from = versions.length - 1;
          if ('create' in request) {
            await s.schedule(Promise.resolve());
            versions.push([...latest(), { ...request.create, id: latest().length + 1 }]);
            return;
          }
          let answer: unknown;
          let alone: (pets: readonly Pet[]) => unknown;
          if ('page' in request) {
            const question = questions[request.page];
            answer = await sut.findPage(question);
            alone = (pets) => pageOf(pets, question);
          } else {
            answer = await sut.findById(request.id);
            alone = (pets) => pets.find((pet) => pet.id === request.id);
          }
          const possible = versions.slice(from).map(alone);
          expect(possible).toContainEqual(answer);
        });
        await s.waitFor(Promise.all(checks));
      }),
      { seed: 5603, numRuns: 1000 },
    );
  });
});
