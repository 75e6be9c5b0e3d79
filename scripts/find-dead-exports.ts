import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import ts from 'typescript';

/**
 * Lists the exports of the app's own modules whose name appears in no other
 * tracked file (sources, tests, scripts, Svelte components): the candidates for
 * removal. A name that only its own file uses is marked `used-in-file` (its
 * `export` may go, the declaration stays). A textual match, so a name that
 * appears elsewhere in any sense counts as used: it never lists too much.
 *
 *   npx tsx scripts/find-dead-exports.ts
 */
const tracked = execFileSync('git', ['ls-files', '*.ts', '*.svelte', '*.js', '*.mjs'], { encoding: 'utf8' }).split('\n').filter(Boolean);
const texts = new Map(tracked.map((file) => [file, readFileSync(file, 'utf8')]));
const modules = tracked.filter((file) => /^(shared|electron|renderer|sandbox|scripts)\//.test(file) && file.endsWith('.ts'));

function exportedNames(file: string, text: string): Set<string> {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const names = new Set<string>();
  for (const statement of source.statements) {
    const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined;
    if (!modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) continue;
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) if (ts.isIdentifier(declaration.name)) names.add(declaration.name.text);
    } else if (
      (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) &&
      statement.name
    ) {
      names.add(statement.name.text);
    }
  }
  return names;
}

for (const file of modules) {
  const text = texts.get(file) ?? '';
  for (const name of exportedNames(file, text)) {
    const word = new RegExp(`\\b${name}\\b`, 'g');
    const usedElsewhere = [...texts].some(([other, otherText]) => other !== file && otherText.search(word) !== -1);
    if (usedElsewhere) continue;
    const ownUses = text.match(word)?.length ?? 0;
    console.log(`${file}\t${name}\t${ownUses > 1 ? 'used-in-file' : 'unused'}`);
  }
}
