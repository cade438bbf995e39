import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { COMMITTED_OPENAPI_DOCUMENT, documentEnvironment, renderOpenApiDocument } from './openapi-export';

// Without a file: the committed document, from the defaults alone (a shell's PUBLIC_BASE_URL must not change the
// contract). With one: the document as this environment would serve it, for SDK generation or a deployment.
async function exportOpenApi(outFile: string | undefined): Promise<void> {
  const text = await renderOpenApiDocument(outFile ? documentEnvironment(process.env) : {});
  const path = resolve(outFile ?? COMMITTED_OPENAPI_DOCUMENT);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  process.stdout.write(`OpenAPI document written to ${path}${outFile ? '' : ' (the defaults; the environment is not read)'}\n`);
}

exportOpenApi(process.argv[2]).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
