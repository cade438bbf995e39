import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { MAX_ID } from '../interface';
import type { Pet } from '../pet';
import { NewPetDto } from './new-pet.dto';

@ApiSchema({ name: 'Pet', description: 'An animal in the store.' })
export class PetDto extends NewPetDto implements Pet {
  @ApiProperty({
    description: 'Unique identifier assigned by the service on creation; increasing, never reused.',
    type: 'integer',
    format: 'int64',
    minimum: 1,
    maximum: MAX_ID,
    example: 42,
  })
  id!: number;
}
