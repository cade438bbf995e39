import { Logger } from '@nestjs/common';
import { DataSource, type QueryRunner } from 'typeorm';
import { LONG_STEP_ROWS, MigrationProgress, progressOf, reportProgress } from './migration-progress';

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

  describe('its log', () => {
    let logged: string[];
    beforeEach(() => {
      jest.useFakeTimers({ now: 1_800_000_000_000 });
      logged = [];
      jest.spyOn(Logger.prototype, 'log').mockImplementation(function (this: Logger, message: unknown) {
        logged.push(`${(this as unknown as { context: string }).context}: ${String(message)}`);
      });
    });
    afterEach(() => {
      jest.useRealTimers();
      jest.restoreAllMocks();
    });

    it('says a long step at its start, how far it is every 5 s, and how long it took', () => {
      const sut = new MigrationProgress();
      sut.begin('Search keys', 1_000_000);
      jest.advanceTimersByTime(4_999);
      sut.advance(100_000);
      jest.advanceTimersByTime(1);
      sut.advance(120_000);
      jest.advanceTimersByTime(4_999);
      sut.advance(200_000);
      jest.advanceTimersByTime(1);
      sut.advance(250_000, 0);
      jest.advanceTimersByTime(2_300);
      sut.end();
      expect(logged).toEqual([
        'Migration: Search keys: 1,000,000 rows to do',
        'Migration: Search keys: 120,000 of 1,000,000 rows (12%)',
        'Migration: Search keys: 250,000 rows',
        'Migration: Search keys: done in 12.3 s',
      ]);
    });

    it('says nothing of a short step, however long it takes', () => {
      const sut = new MigrationProgress();
      sut.begin('Search keys', LONG_STEP_ROWS - 1);
      jest.advanceTimersByTime(60_000);
      sut.advance(5_000);
      sut.end();
      sut.end();
      expect(logged).toEqual([]);
    });
  });

  it('is where the steps on a data source report, once given, and the same one each time when not', () => {
    const given = new MigrationProgress();
    const reported = new DataSource({ type: 'sqlite', database: ':memory:' });
    reportProgress(reported, given);
    expect(progressOf(reported)).toBe(given);
    expect(progressOf({ connection: reported } as QueryRunner)).toBe(given);
    const other = new DataSource({ type: 'sqlite', database: ':memory:' });
    expect(progressOf(other)).toBe(progressOf(other));
    expect(progressOf(other)).not.toBe(given);
  });
});
