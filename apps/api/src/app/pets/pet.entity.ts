import { Column, Entity, Generated, PrimaryColumn } from 'typeorm';
import type { PetStatus } from '@petstore/contract';
import { safeInteger } from '../database/safe-integer';

/** A row of the `pets` table; the schema itself is owned by the migrations. */
@Entity({ name: 'pets' })
export class PetEntity {
  @PrimaryColumn({ type: 'bigint', transformer: safeInteger })
  @Generated('increment')
  id!: number;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ name: 'category_id', type: 'bigint', transformer: safeInteger })
  categoryId!: number;

  @Column({ type: 'varchar', length: 16 })
  status!: PetStatus;
}
