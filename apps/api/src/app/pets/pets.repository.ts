import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { NewPet, PetStatus } from '@petstore/contract';
import type { Repository } from 'typeorm';
import { DatabaseConnection } from '../database/database-connection';
import { toSafeInteger } from '../database/safe-integer';
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

// The reads are the hot path of the service: plain SQL with named parameters, which TypeORM turns into the driver's
// placeholders, costs a fraction of building the same query with the query builder on every request.
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
  constructor(
    @InjectRepository(PetEntity) private readonly pets: Repository<PetEntity>,
    private readonly database: DatabaseConnection,
  ) {}

  findPage({ status, afterId, take }: PetPageQuery): Promise<PetEntity[]> {
    return status === undefined
      ? this.select(SQL.page, { afterId, take })
      : this.select(SQL.pageByStatus, { status, afterId, take });
  }

  async findById(id: number): Promise<PetEntity | null> {
    const [pet] = await this.select(SQL.byId, { id });
    return pet ?? null;
  }

  /** Inserts one pet in its own implicit transaction: committed and synced when this resolves. */
  insert(pet: Required<NewPet>): Promise<PetEntity> {
    return this.database.run(async () => {
      const result = await this.pets.insert(pet);
      return { ...pet, id: toSafeInteger(result.identifiers[0].id) };
    });
  }

  private select(sql: string, parameters: Record<string, unknown>): Promise<PetEntity[]> {
    return this.database.run(async () => {
      const [query, values] = this.pets.manager.connection.driver.escapeQueryWithParameters(sql, parameters, {});
      const rows: PetRow[] = await this.pets.query(query, values);
      return rows.map(toEntity);
    });
  }
}
