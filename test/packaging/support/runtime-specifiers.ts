import { parse } from 'acorn';

interface AstNode {
  readonly type: string;
  readonly [key: string]: unknown;
}

const isNode = (value: unknown): value is AstNode => typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';

const stringLiteral = (value: unknown): string | null =>
  isNode(value) && value.type === 'Literal' && typeof value['value'] === 'string' ? (value['value'] as string) : null;

/**
 * Module names a bundle loads at run time, read from its syntax tree (acorn): import and export-from
 * declarations, dynamic imports with a literal name, and require() calls (esbuild renames a local require to
 * require2 and so on). A bundled package's messages that quote `require('x')` are strings, not calls, so they
 * do not count (a text search took them for loads). Relative names are left out.
 */
export function runtimeSpecifiers(code: string): string[] {
  const names = new Set<string>();
  const add = (name: string | null) => {
    if (name && !name.startsWith('.')) names.add(name);
  };
  const program = parse(code, { ecmaVersion: 'latest', sourceType: 'module' }) as unknown as AstNode;
  // An explicit stack: a bundle's tree is deeper than the call stack allows.
  const stack: unknown[] = [program];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      stack.push(...(node as unknown[]));
      continue;
    }
    if (!isNode(node)) continue;
    if (node.type === 'ImportDeclaration' || node.type === 'ExportAllDeclaration' || node.type === 'ExportNamedDeclaration' || node.type === 'ImportExpression') {
      add(stringLiteral(node['source']));
    }
    if (node.type === 'CallExpression') {
      const callee = node['callee'];
      const args = node['arguments'] as unknown[];
      if (isNode(callee) && callee.type === 'Identifier' && /^require\d*$/.test(String(callee['name']))) add(stringLiteral(args[0]));
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'type' && typeof value === 'object' && value !== null) stack.push(value);
  }
  return [...names].sort();
}
