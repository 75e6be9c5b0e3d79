import { build } from 'esbuild';
import { copyBundleAssets } from './lib/bundle-assets.js';
import { nodeBundles } from './lib/node-bundles.js';

/** Bundles the node-side entry points (scripts/lib/node-bundles.ts) for a release build: no source maps. */
const out = process.env.CD_DIST_DIR ?? 'dist';
await Promise.all([...nodeBundles(out, { sourcemap: false }).map((options) => build(options)), copyBundleAssets(out)]);
