import { relative } from 'node:path';
import { compareContracts } from './api-gate';
import { CURRENT_DOCUMENT, latestReleaseFile, readDocument } from './documents';
import { formatReport } from './report';

// `npm run api-gate`: exit 0 when the committed document keeps the latest release's promises (or cuts a new major),
// 1 when it breaks them, 2 when it could not compare.
async function main(): Promise<void> {
  const released = latestReleaseFile();
  const report = await compareContracts(readDocument(released), readDocument(CURRENT_DOCUMENT));
  process.stdout.write(formatReport(report, relative(process.cwd(), released), relative(process.cwd(), CURRENT_DOCUMENT)));
  process.exitCode = report.refused ? 1 : 0;
}

main().catch((error: unknown) => {
  process.stderr.write(`api-gate could not compare the documents: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
});
