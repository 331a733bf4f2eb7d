// Runs the code blocks of a README section as written, so a snippet that stops working when pasted
// fails a test: type-checked against the built package, then executed with the built package.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const README = fileURLToPath(new URL('../README.md', import.meta.url));
/** The repository's own README (the tutorial). */
export const ROOT_README = fileURLToPath(new URL('../../../README.md', import.meta.url));

/** A fenced code block: its language and its text. */
export interface CodeBlock {
  lang: string;
  code: string;
}

/** The fenced code blocks of the README section titled `## <title>`, in order (the SDK's README unless `readme` names another). */
export function sectionBlocks(title: string, readme = README): CodeBlock[] {
  const text = readFileSync(readme, 'utf8');
  const start = text.indexOf(`\n## ${title}\n`);
  if (start === -1) throw new Error(`README has no section "## ${title}"`);
  const end = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], code: m[2] }));
}

/**
 * The type errors of TypeScript snippets, each compiled as its own module beside this file (so
 * `@svc/client` resolves to the built package, as in an app), with the package's strict settings.
 */
export function typeErrors(snippets: string[]): string[] {
  const files = new Map(snippets.map((code, i) => [fileURLToPath(new URL(`./readme-snippet-${i}.ts`, import.meta.url)), code]));
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, version, ...rest) => {
    const code = files.get(name);
    return code === undefined ? getSourceFile.call(host, name, version, ...rest) : ts.createSourceFile(name, code, version);
  };
  host.fileExists = (name) => files.has(name) || fileExists.call(host, name);
  host.readFile = (name) => files.get(name) ?? readFile.call(host, name);
  const program = ts.createProgram([...files.keys()], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    return `${where ? `line ${where.line + 1}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

const AsyncFunction = (async () => undefined).constructor as new (...params: string[]) => (...args: unknown[]) => Promise<Record<string, unknown>>;

/**
 * Runs a TypeScript snippet (types stripped, nothing else changed) as the body of an async function:
 * its `import { … } from '@svc/client'` takes the names from `sdk`, the names in `globals` shadow
 * the real ones (e.g. a `console` that records), and it resolves with the snippet's top-level
 * variables named in `results`.
 */
export async function runSnippet<R extends Record<string, unknown>>(
  code: string,
  sdk: object,
  globals: Record<string, unknown>,
  results: Array<keyof R & string>,
): Promise<R> {
  const js = ts.transpileModule(code, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
  const body = js.replace(/^import \{([^}]*)\} from '@svc\/client';$/gm, 'const {$1} = __sdk;');
  if (/^\s*import\s/m.test(body)) throw new Error(`the snippet imports something besides @svc/client:\n${body}`);
  const fn = new AsyncFunction('__sdk', ...Object.keys(globals), `${body}\nreturn { ${results.join(', ')} };`);
  return (await fn(sdk, ...Object.values(globals))) as R;
}
