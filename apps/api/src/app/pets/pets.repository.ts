import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { NewPet, PetStatus } from '@petstore/contract';
import type { Repository } from 'typeorm';
import { DatabaseConnection } from '../database/database-connection';
import { toSafeInteger } from '../database/safe-integer';
import { GroupCommit } from './group-commit';
import { PetEntity } from './pet.entity';

export interface PetPageQuery {
  status?: PetStatus;
  afterId: number;
  take: number;
}

/** A row as the queries below select it; PostgreSQL gives 64-bit columns as strings. */
interface PetRow {
  id: number | string;
  name: string;
  categoryId: number | string;
  status: PetStatus;
}

const COLUMNS = 'id, name, category_id AS "categoryId", status';

// The reads are the hot path of the service: plain SQL with named parameters, bound by position for the driver
// (database/named-parameters.ts), costs a fraction of building the same query with the query builder each time.
const SQL = {
  page: `SELECT ${COLUMNS} FROM pets WHERE id > :afterId ORDER BY id LIMIT :take`,
  pageByStatus: `SELECT ${COLUMNS} FROM pets WHERE status = :status AND id > :afterId ORDER BY id LIMIT :take`,
  byId: `SELECT ${COLUMNS} FROM pets WHERE id = :id`,
};

const toEntity = (row: PetRow): PetEntity => ({
  id: toSafeInteger(row.id),
  name: row.name,
  categoryId: toSafeInteger(row.categoryId),
  status: row.status,
});

/** The only place that talks to the `pets` table. */
@Injectable()
export class PetsRepository {
  // SQLite has one writer and an fsync per commit: creates that arrive together are committed together. PostgreSQL
  // runs concurrent commits side by side already, and its identity values may interleave between transactions.
  private readonly groupCommit?: GroupCommit<Required<NewPet>>;

  constructor(
    @InjectRepository(PetEntity) private readonly pets: Repository<PetEntity>,
    private readonly database: DatabaseConnection,
  ) {
    if (pets.manager.connection.options.type === 'sqlite') this.groupCommit = new GroupCommit((batch) => this.insertMany(batch));
  }

  findPage({ status, afterId, take }: PetPageQuery): Promise<PetEntity[]> {
    return status === undefined
      ? this.select(SQL.page, { afterId, take })
      : this.select(SQL.pageByStatus, { status, afterId, take });
  }

  async findById(id: number): Promise<PetEntity | null> {
    const [pet] = await this.select(SQL.byId, { id });
    return pet ?? null;
  }

  /** Inserts one pet: committed and synced when this resolves. */
  insert(pet: Required<NewPet>): Promise<PetEntity> {
    return this.database.run(async () => {
      if (this.groupCommit) return { ...pet, id: await this.groupCommit.add(pet) };
      const result = await this.pets.insert(pet);
      return { ...pet, id: toSafeInteger(result.identifiers[0].id) };
    });
  }

  /** One multi-row INSERT, one implicit transaction (SQLite): resolves to the id of the last row. */
  private async insertMany(pets: Array<Required<NewPet>>): Promise<number> {
    const rows = pets.map(() => '(?, ?, ?)').join(', ');
    const values = pets.flatMap((pet) => [pet.name, pet.categoryId, pet.status]);
    return toSafeInteger(await this.pets.query(`INSERT INTO pets (name, category_id, status) VALUES ${rows}`, values));
  }

  private async select(sql: string, parameters: Record<string, unknown>): Promise<PetEntity[]> {
    return (await this.database.read<PetRow>(sql, parameters)).map(toEntity);
  }
}
