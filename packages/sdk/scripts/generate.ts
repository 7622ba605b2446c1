// Generates the SDK's committed files from the document Herald serves at /openapi.json:
//   openapi.json    the document itself (linted by Redocly in npm test)
//   src/schema.ts   its types, by openapi-typescript
// then builds dist/ (plain ESM JavaScript and .d.ts) from src/ with this package's TypeScript.
//   npm run sdk:generate        (from the repository root)
// test/integration/sdk-generated.test.ts regenerates in-process and fails when a committed file differs.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildOpenApiDocument } from '../../../scripts/openapi.ts';

export const SDK_DIR = fileURLToPath(new URL('..', import.meta.url));

const HEADER = `// Generated from Herald's OpenAPI document (packages/sdk/openapi.json) by openapi-typescript.
// Do not edit: run \`npm run sdk:generate\` at the repository root after changing a route.
/* eslint-disable */
`;

/** The files generated from the app's current document: path below packages/sdk → content. */
export async function generatedFiles(): Promise<Record<string, string>> {
  const doc = await buildOpenApiDocument();
  const types = astToString(await openapiTS(doc as never, { alphabetize: false }));
  return {
    'openapi.json': `${JSON.stringify(doc, null, 2)}\n`,
    'src/schema.ts': HEADER + types,
  };
}

/** Builds dist/ (or `outDir`) from src/ with this package's tsc. */
export function build(outDir = 'dist'): void {
  const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
  execFileSync(process.execPath, [tsc, '-p', SDK_DIR, '--outDir', outDir], { cwd: SDK_DIR, stdio: 'inherit' });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [path, content] of Object.entries(await generatedFiles())) {
    const target = `${SDK_DIR}${path}`;
    let before = '';
    try {
      before = readFileSync(target, 'utf8');
    } catch {}
    if (before !== content) writeFileSync(target, content);
    console.log(`${before === content ? 'unchanged' : 'wrote    '} packages/sdk/${path}`);
  }
  build();
  console.log('built     packages/sdk/dist');
}
