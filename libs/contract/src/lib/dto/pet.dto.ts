import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { MAX_ID } from '../interface';
import type { Pet } from '../pet';
import { NewPetDto } from './new-pet.dto';

@ApiSchema({ name: 'Pet', description: 'An animal in the store.' })
export class PetDto extends NewPetDto implements Pet {
  @ApiProperty({
    description:
      'Unique identifier assigned by the service on creation; increasing, never reused. Ids are sequential integers ' +
      '(int64 by the interface), so they are not secret: access is governed by the API key, not by id secrecy.',
    type: 'integer',
    format: 'int64',
    minimum: 1,
    maximum: MAX_ID,
    example: 42,
  })
  id!: number;
}
