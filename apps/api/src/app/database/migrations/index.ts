import { CreatePets1764115200000 } from './1764115200000-create-pets';

/** Every migration, oldest first. */
export const migrations = [CreatePets1764115200000];
