import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';

// PRAGMA synchronous values: 2 is FULL, which syncs the WAL at every commit so that a 201 survives a power cut.
const SYNCHRONOUS_FULL = 2;

/** Makes every commit durable, proves it by reading the settings back, then brings the schema up to date. */
@Injectable()
export class DatabaseInitializer implements OnModuleInit {
  private readonly logger = new Logger(DatabaseInitializer.name);

  constructor(private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    await this.dataSource.query('PRAGMA synchronous = FULL');
    const [{ journal_mode: journalMode }] = await this.dataSource.query('PRAGMA journal_mode');
    const [{ synchronous }] = await this.dataSource.query('PRAGMA synchronous');
    const inMemory = journalMode === 'memory';
    if ((journalMode !== 'wal' && !inMemory) || synchronous !== SYNCHRONOUS_FULL) {
      throw new Error(`SQLite durability not in force: journal_mode=${journalMode}, synchronous=${synchronous}`);
    }
    const applied = await this.dataSource.runMigrations({ transaction: 'each' });
    this.logger.log(
      `Database ready (journal_mode=${journalMode}, synchronous=FULL); ${applied.length} migration(s) applied`,
    );
  }
}
