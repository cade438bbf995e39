// Secondary entry point: the contract's shapes as decorated classes that drive OpenAPI and validation.
// It loads @nestjs/swagger and class-validator, so clients reach it only with `import type`.
export { ErrorDto } from './lib/dto/error.dto';
export { ListPetsQueryDto } from './lib/dto/list-pets-query.dto';
export { NewPetDto } from './lib/dto/new-pet.dto';
export { PetDto } from './lib/dto/pet.dto';
