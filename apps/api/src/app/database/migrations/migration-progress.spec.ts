import { LONG_STEP_ROWS, MigrationProgress } from './migration-progress';

const settled = async (promise: Promise<unknown>) => {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe(MigrationProgress.name, () => {
  it('keeps the start waiting through short steps, and lets it go at the first long one', async () => {
    const sut = new MigrationProgress();
    sut.begin('Index pets_category_id_id', LONG_STEP_ROWS - 1);
    sut.end();
    sut.begin('Index pets_name_key_trgm');
    sut.end();
    expect(await settled(sut.long)).toBe(false);
    sut.begin('Search keys', LONG_STEP_ROWS);
    expect(await settled(sut.long)).toBe(true);
  });

  it('says the step under way and how far it is, and nothing between steps', () => {
    const sut = new MigrationProgress();
    expect(sut.describe()).toBeUndefined();
    sut.begin('Search keys', 1_000_000);
    sut.advance(120_000);
    expect(sut.describe()).toBe('Search keys, 120,000 of 1,000,000 rows (12%)');
    sut.advance(1_000_500, 1_000_500);
    expect(sut.describe()).toBe('Search keys, 1,000,500 of 1,000,500 rows (100%)');
    sut.end();
    expect(sut.describe()).toBeUndefined();
    sut.begin('Index pets_name_key_missing');
    expect(sut.describe()).toBe('Index pets_name_key_missing');
  });

  it('stops a migration at its next batch or step once the process stops', () => {
    const sut = new MigrationProgress();
    sut.begin('Search keys', 50_000);
    sut.stop();
    expect(() => sut.advance(2_000)).toThrow('The migration was stopped with the process; the next start resumes it');
    expect(() => sut.begin('Index pets_name_key_trgm', 50_000)).toThrow('stopped');
  });
});
