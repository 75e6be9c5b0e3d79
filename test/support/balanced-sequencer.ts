import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { balancedShards, FILE_DURATIONS, fileWeights, readDurations } from './balanced-shards.js';

/**
 * `vitest run --shard=i/n` as npm test's vitest lanes use it: vitest's own shards are slices of the files ordered
 * by a hash of their paths, equal in count but not in time (the kill loops alone are a ninth of the whole), so the
 * slowest lane set the run's end. Here each shard gets about the same time by the files' last measured durations
 * (balanced-shards.ts), and within a run the longest files start first, so none is left running alone at the end (a
 * fresh clone has no results cache of vitest's own to order by). The files of a project stay together: a worker
 * runs the next file of a non-isolated project (unit, integration) without importing its modules again only when
 * that file is next in the queue.
 */
/** The project whose files must never run beside each other in one keyring (vitest.config.ts runs it one at a time). */
export const ONE_AT_A_TIME_PROJECT = 'integration-keychain';

export class BalancedSequencer extends BaseSequencer {
  override shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    const shard = this.ctx.config.shard;
    if (!shard) return Promise.resolve(files);
    const { index, count } = shard;
    // The project that runs one file at a time has the last shard to itself, a lane and a keyring of its own; the
    // rest share out the others. (By name: a lane run with one worker gives every project maxWorkers 1.)
    const oneAtATime = (spec: TestSpecification) => count > 1 && spec.project.name === ONE_AT_A_TIME_PROJECT;
    if (index === count && files.some(oneAtATime)) return Promise.resolve(files.filter(oneAtATime));
    const rest = files.filter((spec) => !oneAtATime(spec));
    const shareCount = files.some(oneAtATime) ? count - 1 : count;
    const mine = new Set(balancedShards(rest.map(this.pathOf), shareCount, this.durations())[index - 1]);
    return Promise.resolve(rest.filter((spec) => mine.has(this.pathOf(spec))));
  }

  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const weightOf = fileWeights(files.map(this.pathOf), this.durations());
    const weight = (spec: TestSpecification) => weightOf(this.pathOf(spec));
    // A project's place is that of its longest file: the kill loops' one file (a fifth of a lane) starts first.
    const longestOf = new Map<string, number>();
    for (const spec of files) longestOf.set(spec.project.name, Math.max(longestOf.get(spec.project.name) ?? 0, weight(spec)));
    const ofProject = (spec: TestSpecification) => longestOf.get(spec.project.name) ?? 0;
    return Promise.resolve(
      [...files].sort(
        (a, b) =>
          ofProject(b) - ofProject(a) ||
          (a.project.name < b.project.name ? -1 : a.project.name > b.project.name ? 1 : 0) ||
          weight(b) - weight(a) ||
          (this.pathOf(a) < this.pathOf(b) ? -1 : 1),
      ),
    );
  }

  private readonly pathOf = (spec: TestSpecification) => relative(this.ctx.config.root, spec.moduleId).split('\\').join('/');

  private durations() {
    return readDurations(join(this.ctx.config.root, FILE_DURATIONS));
  }
}
