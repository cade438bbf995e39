import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'petstore:isPublic';

/** Opts a controller or handler out of authentication (health checks). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
