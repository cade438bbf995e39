import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ValidateIf } from 'class-validator';
import { MAX_ID, NAME_LENGTH } from '../interface';
import type { NewPet } from '../pet';
import { PetStatus } from '../pet-status';
import { IsPetName, IsPetStatus, IsSafeId } from './validators';

@ApiSchema({ name: 'NewPet', description: 'An animal to add. The service assigns its `id`.' })
export class NewPetDto implements NewPet {
  @ApiProperty({
    description: "The animal's name: 1 to 100 Unicode characters, not only whitespace, stored exactly as sent.",
    minLength: NAME_LENGTH.min,
    maxLength: NAME_LENGTH.max,
    example: 'Rex',
  })
  @IsPetName()
  name!: string;

  @ApiProperty({
    description: 'Identifier of the category the animal belongs to.',
    type: 'integer',
    format: 'int64',
    minimum: 1,
    maximum: MAX_ID,
    example: 1,
  })
  @IsSafeId()
  categoryId!: number;

  @ApiProperty({
    description: 'Availability of the animal; `available` when omitted.',
    enum: PetStatus,
    enumName: 'PetStatus',
    required: false,
    default: PetStatus.Available,
  })
  @ValidateIf((_, value) => value !== undefined)
  @IsPetStatus()
  status?: PetStatus;
}
