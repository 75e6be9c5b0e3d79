import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The modules the page evaluates before the overview can mount: renderer/main.ts and everything it imports
 * statically, as the bundle's entry chunk holds them (a dynamic `import()` is a chunk of its own, loaded later;
 * `import type` is erased; under verbatimModuleSyntax every other import, even of types only, stays an edge).
 */
function firstCode(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    let text = readFileSync(file, 'utf8');
    // A component's code is its script blocks.
    if (file.endsWith('.svelte')) text = [...text.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((block) => block[1]).join('\n');
    for (const statement of text.matchAll(/^\s*(import|export)\s+(type\s+)?([^'";]*?from\s+)?['"]([^'"]+)['"]/gm)) {
      const [, , typeOnly, , specifier = ''] = statement;
      if (typeOnly || !specifier.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
      const found = [target, target.replace(/\.ts$/, '.js'), specifier.endsWith('.svelte') ? target : ''].find((path) => path && existsSync(path));
      if (found && /\.(ts|svelte)$/.test(found)) visit(found);
    }
  };
  visit(resolve(entry));
  return new Set([...seen].map((file) => relative(process.cwd(), file).split('\\').join('/')));
}

describe("the page's first code (issue 25, branch overview12)", () => {
  const modules = firstCode(join('renderer', 'main.ts'));

  it('is found by following the entry (the walk reaches the overview and the schemas its stores read kept state with)', () => {
    expect(modules).toContain('renderer/views/overview/OverviewView.svelte');
    expect(modules).toContain('renderer/stores/capacity-list.svelte.ts');
    expect(modules).toContain('shared/api/capacity-status.ts');
    expect(modules).toContain('shared/ipc/local-sort.ts');
    expect(modules).toContain('shared/ipc/worklist-rules.ts');
    expect(modules).toContain('shared/money/unknown-terms.ts');
  });

  it("builds none of the schemas of the service's policies, the copy's rows and the answers' origins: their modules are the views' chunks'", () => {
    // Each of these builds dozens of zod schemas at its evaluation (about 40 % of the entry module's evaluation
    // was zod's, sampled at a launch); the first screen reads none of them.
    const heavy = ['shared/api/capacity.ts', 'shared/api/readers.ts', 'shared/api/cyber.ts', 'shared/api/accounts.ts', 'shared/ipc/offline.ts', 'shared/ipc/sourced.ts', 'shared/ipc/worklist.ts', 'shared/ipc/overview.ts'];
    expect(heavy.filter((module) => modules.has(module))).toEqual([]);
  });

  it("builds neither the agreement's, the fee schedule's, the quote's nor the drift report's schemas (nor the runtime's list of currencies)", () => {
    const heavy = ['shared/money/agreement-terms.ts', 'shared/money/fee-schedule.ts', 'shared/quote/quote.ts', 'shared/ipc/diagnostics.ts'];
    expect(heavy.filter((module) => modules.has(module))).toEqual([]);
  });

  it("makes neither the query parameters' schemas nor the worklist entry's (branch overview16)", () => {
    // The list's kept state wants the sort order alone (sort-order.ts), the Renewals store the worklist's rules alone
    // (worklist-rules.ts): paging.ts and worklist-entry.ts made a score of schemas, two ISO patterns among them.
    expect(modules).toContain('shared/api/sort-order.ts');
    const heavy = ['shared/api/paging.ts', 'shared/ipc/worklist-entry.ts'];
    expect(heavy.filter((module) => modules.has(module))).toEqual([]);
  });
});
