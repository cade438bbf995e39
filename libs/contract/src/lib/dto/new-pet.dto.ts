/* eslint-disable @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-interface, @typescript-eslint/no-empty-object-type --
   the class carries the decorators Nest reads, its properties are NewPet's (declared once, in pet.ts) */
import { ApiSchema } from '@nestjs/swagger';
import { type NewPet, PET_FIELDS } from '../pet';
import { sentFieldEntries } from '../pet-field';
import { decorateFields } from './field-properties';

export interface NewPetDto extends NewPet {}

@ApiSchema({ name: 'NewPet', description: 'An animal to add. The service assigns its `id`.' })
export class NewPetDto {}

decorateFields(NewPetDto, sentFieldEntries(PET_FIELDS));
