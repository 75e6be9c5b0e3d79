import { build } from 'electron-builder';
import { buildDirConflict } from './lib/build-dir.js';
import { parseDistArgs, planDist } from './lib/dist-plan.js';

/**
 * `npm run dist` (installers for this OS), `npm run dist:test` (the unpacked
 * test build for the _electron suite). Run after `npm run build`.
 * CAPACITY_DESK_REQUIRE_SIGNING=1 (set by the release workflow on tags) turns
 * any missing signing secret into a failure instead of an unsigned installer.
 */
// electron-builder packs dist/ (its `files`); a build elsewhere would ship a stale app.
const conflict = buildDirConflict(process.env, process.cwd());
if (conflict) {
  console.error(`dist: ${conflict}`);
  process.exit(1);
}

const plan = planDist(parseDistArgs(process.argv.slice(2)), process.env, process.platform);
if (plan.refused) {
  console.error(`dist: ${plan.refused}`);
  process.exit(1);
}
console.log(`dist: update feed: ${plan.feed}`);
for (const line of plan.signing) console.log(`dist: ${line}`);
if (plan.missing.length > 0) {
  const message = `dist: not set: ${plan.missing.join('; ')} (see docs/release.md)`;
  if (process.env.CAPACITY_DESK_REQUIRE_SIGNING === '1') {
    console.error(message);
    process.exit(1);
  }
  console.warn(message);
}

const artifacts = await build({ config: plan.config, dir: plan.dir, publish: plan.publish });
for (const artifact of artifacts) console.log(`dist: built ${artifact}`);
