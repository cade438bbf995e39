import { CreatePets1764115200000 } from './1764115200000-create-pets';
import { CreateApiKeys1764288000000 } from './1764288000000-create-api-keys';
import { CreateIdempotencyKeys1764374400000 } from './1764374400000-create-idempotency-keys';
import { AddKeyScopesAndRotation1764460800000 } from './1764460800000-add-key-scopes-and-rotation';
import { CreateWebhooks1764547200000 } from './1764547200000-create-webhooks';

/** Every migration, oldest first. */
export const migrations = [
  CreatePets1764115200000,
  CreateApiKeys1764288000000,
  CreateIdempotencyKeys1764374400000,
  AddKeyScopesAndRotation1764460800000,
  CreateWebhooks1764547200000,
];
