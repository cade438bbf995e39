import { CreatePets1764115200000 } from './1764115200000-create-pets';
import { CreateApiKeys1764288000000 } from './1764288000000-create-api-keys';
import { CreateIdempotencyKeys1764374400000 } from './1764374400000-create-idempotency-keys';
import { AddKeyScopesAndRotation1764460800000 } from './1764460800000-add-key-scopes-and-rotation';
import { CreateWebhooks1764547200000 } from './1764547200000-create-webhooks';
import { AddNameSearch1796000000000 } from './1796000000000-add-name-search';
import { IndexNameSearch1796000000001 } from './1796000000001-index-name-search';
import { FoldFinalSigma1796000000002 } from './1796000000002-fold-final-sigma';
import { IndexShortNames1796000000003 } from './1796000000003-index-short-names';
import { CreatePetEvents1797000000000 } from './1797000000000-create-pet-events';

/** Every migration, oldest first. */
export const migrations = [
  CreatePets1764115200000,
  CreateApiKeys1764288000000,
  CreateIdempotencyKeys1764374400000,
  AddKeyScopesAndRotation1764460800000,
  CreateWebhooks1764547200000,
  AddNameSearch1796000000000,
  IndexNameSearch1796000000001,
  FoldFinalSigma1796000000002,
  IndexShortNames1796000000003,
  CreatePetEvents1797000000000,
];
