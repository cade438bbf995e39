import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { PetStatus } from '@petstore/contract';

/** A row of the `pets` table; the schema itself is owned by the migrations. */
@Entity({ name: 'pets' })
export class PetEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ name: 'category_id', type: 'bigint' })
  categoryId!: number;

  @Column({ type: 'varchar', length: 16 })
  status!: PetStatus;
}
