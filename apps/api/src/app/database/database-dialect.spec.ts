import type { DataSource } from 'typeorm';
import { DatabaseDialect } from './database-dialect';

/** A dialect that learns from one failure (a pooler refusing a setting), as PostgreSQL's does. */
class LearningDialect extends DatabaseDialect<'postgres'> {
  readonly kind = 'postgres';
  constructor(private readonly teaches: unknown) {
    super();
  }
  options = jest.fn();
  ensureDurability = jest.fn();
  migrate = jest.fn();
  override adaptTo(_dataSource: DataSource, failure: unknown): string | undefined {
    return failure === this.teaches ? 'connecting without the session settings' : undefined;
  }
}

describe('DatabaseDialect.connectOnce', () => {
  const refused = new Error('unsupported startup parameter: statement_timeout');

  it('connects again at once after a failure the dialect adapted to, as often as it adapts', async () => {
    const initialize = jest.fn().mockRejectedValueOnce(refused).mockRejectedValueOnce(refused).mockResolvedValue(undefined);
    await new LearningDialect(refused).connectOnce({ initialize } as unknown as DataSource);
    expect(initialize).toHaveBeenCalledTimes(3);
  });

  it('gives up at the first failure it cannot adapt to, with that failure', async () => {
    const down = new Error('connect ECONNREFUSED 127.0.0.1:5432');
    const initialize = jest.fn().mockRejectedValue(down);
    await expect(new LearningDialect(refused).connectOnce({ initialize } as unknown as DataSource)).rejects.toBe(down);
    expect(initialize).toHaveBeenCalledTimes(1);
  });
});
