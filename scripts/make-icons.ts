import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateIcons } from './icons/generate.js';

/** `npm run icons`: redraws build/icon.{png,ico,icns,svg} from scripts/icons/design.ts. */
const out = process.argv[2] ?? 'build';
for (const [name, data] of generateIcons()) {
  await writeFile(join(out, name), data);
  console.log(`${join(out, name)}  ${(data.length / 1024).toFixed(1)} KiB`);
}
