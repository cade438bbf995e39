/* eslint-disable @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-interface, @typescript-eslint/no-empty-object-type --
   the class carries the decorators Nest reads, its properties are Pet's (declared once, in pet.ts) */
import { ApiSchema } from '@nestjs/swagger';
import { type Pet, PET_FIELDS } from '../pet';
import { fieldEntries } from '../pet-field';
import { decorateFields } from './field-properties';
import { NewPetDto } from './new-pet.dto';

export interface PetDto extends Pet {}

@ApiSchema({ name: 'Pet', description: 'An animal in the store.' })
export class PetDto extends NewPetDto {}

// The fields the service assigns, after those inherited from NewPet, as the document has always listed them.
decorateFields(
  PetDto,
  fieldEntries(PET_FIELDS).filter(([, spec]) => spec.assigned),
);
