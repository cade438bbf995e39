import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { compareContracts } from './api-gate';
import { CURRENT_DOCUMENT, latestReleaseFile, readDocument } from './documents';
import { formatReport } from './report';

// `npm run api-gate [-- --released <file> --current <file> --json]`: exit 0 when the current document (the committed one)
// keeps the released one's promises (the latest release's) or cuts a new major, 1 when it breaks them or changes
// what the gate cannot weigh, 2 when it could not compare (a file unreadable, or not an OpenAPI document). `--json`
// prints the report as JSON, for `npm run release`.
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { released: { type: 'string' }, current: { type: 'string' }, json: { type: 'boolean', default: false } } });
  const released = values.released ?? latestReleaseFile();
  const current = values.current ?? CURRENT_DOCUMENT;
  const report = await compareContracts(readDocument(released), readDocument(current));
  const [releasedFile, currentFile] = [relative(process.cwd(), released), relative(process.cwd(), current)];
  process.stdout.write(values.json ? `${JSON.stringify({ released: releasedFile, current: currentFile, ...report })}\n` : formatReport(report, releasedFile, currentFile));
  process.exitCode = report.refused ? 1 : 0;
}

main().catch((error: unknown) => {
  process.stderr.write(`api-gate could not compare the documents: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
});
