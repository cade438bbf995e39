import { type Pet, PetStatus } from '@petstore/contract';
import type { Acknowledged, Create } from './load';

/** Names the harness gives its pets; any other row was not written by it. */
const NAME = /^crash-\d+-\d+$/;

export type ProblemKind = 'lost' | 'duplicate' | 'reused' | 'other';

export interface Problem {
  kind: ProblemKind;
  message: string;
}

/** One look at the whole table. */
export interface TableCheck {
  /** Acknowledged pets found exactly as their 201 returned them. */
  present: number;
  /** Each create has a name of its own, so a count above 1 is a duplicate. */
  rowsByName: Map<string, number>;
}

/**
 * What the service has promised, checked against what it stores: every 201 stays stored as returned, no name is stored
 * twice, no id is given twice, and ids given after a restart are above every id stored before it.
 */
export class Ledger {
  /** Every pet a 201 returned, by name. */
  private readonly acknowledged = new Map<string, Pet>();
  /** Every pet seen, in a 201 or in the table, by id. */
  private readonly seen = new Map<number, Pet>();
  /** The largest id stored when the service last started: any pet created since must have a larger one. */
  private floor = 0;
  private readonly reported = new Set<string>();
  readonly lost = new Set<string>();
  readonly duplicates = new Set<string>();
  readonly reusedIds = new Set<number>();
  /** Once each, in the order found. */
  readonly problems: Problem[] = [];

  get acknowledgedCount(): number {
    return this.acknowledged.size;
  }

  /** The last 201 of each name. */
  acknowledgedPets(): Pet[] {
    return [...this.acknowledged.values()];
  }

  /** The pet as sent, under an id of its own, above the floor unless the 201 replays an earlier one. */
  acknowledge({ create, pet }: Acknowledged): void {
    const expected: Pet = { id: pet.id, status: PetStatus.Available, ...create.body };
    if (!samePet(pet, expected)) this.report('other', `the 201 for ${json(create.body)} returned ${json(pet)}`);
    this.checkId(pet, 'a 201 gave');
    const earlier = this.acknowledged.get(pet.name);
    if (earlier && earlier.id !== pet.id) this.duplicate(pet.name, `${pet.name} was acknowledged twice, as ${json(earlier)} and as ${json(pet)}`);
    this.acknowledged.set(pet.name, pet);
  }

  /** The whole table, read after a restart. Raises the floor to its largest id. */
  checkTable(pets: Pet[]): TableCheck {
    const byId = new Map<number, Pet>();
    const rowsByName = new Map<string, number>();
    let largest = 0;
    for (const pet of pets) {
      if (pet.id <= largest) this.report('other', `the list gave id ${pet.id} after id ${largest}, not in increasing order`);
      largest = Math.max(largest, pet.id);
      byId.set(pet.id, pet);
      rowsByName.set(pet.name, (rowsByName.get(pet.name) ?? 0) + 1);
      this.checkRow(pet);
    }
    for (const [name, rows] of rowsByName) if (rows > 1) this.duplicate(name, `${name} is stored ${rows} times`);
    let present = 0;
    for (const [name, pet] of this.acknowledged) {
      const row = byId.get(pet.id);
      if (row && samePet(row, pet)) {
        present++;
        continue;
      }
      this.lost.add(name);
      this.report('lost', `acknowledged ${json(pet)} is ${row ? `stored as ${json(row)}` : 'missing'}`);
    }
    this.floor = Math.max(this.floor, largest);
    return { present, rowsByName };
  }

  /** The rows stored since `table` was read, after `retried` were sent again: each of those names is stored once. */
  checkRetried(retried: Create[], table: TableCheck, newRows: Pet[]): void {
    const rowsByName = new Map(table.rowsByName);
    const names = new Set(retried.map((create) => create.body.name));
    for (const pet of newRows) {
      rowsByName.set(pet.name, (rowsByName.get(pet.name) ?? 0) + 1);
      if (!names.has(pet.name)) this.report('other', `${json(pet)} was stored during the retries, which did not send it`);
      this.checkRow(pet);
    }
    for (const name of names) {
      const rows = rowsByName.get(name) ?? 0;
      if (rows > 1) this.duplicate(name, `${name} is stored ${rows} times after a retry with the same Idempotency-Key and body`);
      const pet = this.acknowledged.get(name);
      if (rows === 0 && pet) {
        this.lost.add(name);
        this.report('lost', `acknowledged ${json(pet)} (a retry's 201) is missing`);
      }
    }
  }

  /** A pet seen before keeps its id and fields; a new one was given an unused id. */
  private checkRow(pet: Pet): void {
    if (!NAME.test(pet.name)) this.report('other', `${json(pet)} was not written by the harness`);
    const before = this.seen.get(pet.id);
    // An acknowledged pet stored otherwise is counted lost by checkTable.
    if (before && before.name === pet.name && !samePet(before, pet) && !this.acknowledged.has(pet.name)) {
      this.report('other', `${json(before)} is now stored as ${json(pet)}`);
    }
    this.checkId(pet, 'the table has');
  }

  private checkId(pet: Pet, where: string): void {
    const before = this.seen.get(pet.id);
    if (before && before.name !== pet.name) {
      this.reusedIds.add(pet.id);
      this.report('reused', `${where} id ${pet.id} to ${json(pet)}, an id seen before for ${json(before)}`);
    } else if (!before && pet.id <= this.floor) {
      this.reusedIds.add(pet.id);
      this.report('reused', `${where} id ${pet.id} to ${json(pet)}, not above ${this.floor}, the largest id stored before the restart`);
    }
    if (!before) this.seen.set(pet.id, pet);
  }

  private duplicate(name: string, message: string): void {
    if (this.duplicates.has(name)) return;
    this.duplicates.add(name);
    this.report('duplicate', message);
  }

  private report(kind: ProblemKind, message: string): void {
    if (this.reported.has(message)) return;
    this.reported.add(message);
    this.problems.push({ kind, message });
  }
}

/** The same fields with the same values. */
function samePet(a: Pet, b: Pet): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key as keyof Pet] === b[key as keyof Pet]);
}

const json = (value: unknown) => JSON.stringify(value);
