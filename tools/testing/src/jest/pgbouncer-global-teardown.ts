import type { RunningPgBouncer } from '../pgbouncer';

export default async function stopPgBouncer(): Promise<void> {
  await (globalThis as { petstorePgBouncer?: RunningPgBouncer }).petstorePgBouncer?.stop();
}
