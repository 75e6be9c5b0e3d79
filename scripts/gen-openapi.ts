/** Writes docs/openapi.json from the shared schemas; a test fails when the committed file is stale. */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../shared/api/openapi.js';

export const OPENAPI_FILE = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));

export function renderOpenApi(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await writeFile(OPENAPI_FILE, renderOpenApi(), 'utf8');
  process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
}
