import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The TypeScript examples of the guides are excerpts of real, compiled and tested code: each ```ts block is preceded
 * by `<!-- example: <path from the repository root> -->` and must appear in that file, line by line in order
 * (indentation and blank lines aside; a line `// …` in the block skips over code). So an example cannot drift
 * from what compiles.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const guides = ['docs/writing-a-feature.md', 'docs/embedding.md', 'packages/kernel/README.md', 'packages/testkit/README.md'];
const elision = /^\/\/ …$/;

interface Example {
  guide: string;
  line: number;
  source: string | undefined;
  lines: string[];
}

function examples(guide: string): Example[] {
  const text = readFileSync(join(root, guide), 'utf8').split('\n');
  const found: Example[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i]?.trim() !== '```ts') continue;
    const source = /^<!-- example: (\S+) -->$/.exec(text[i - 1]?.trim() ?? '')?.[1];
    const lines: string[] = [];
    for (i++; i < text.length && text[i]?.trim() !== '```'; i++) lines.push(text[i] as string);
    found.push({ guide, line: i - lines.length, source, lines });
  }
  return found;
}

/** Null when the block's lines appear in the file in order (each run between elisions consecutively), else the first run that does not. */
function missingRun(example: Example): string | null {
  const file = readFileSync(join(root, example.source as string), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const runs: string[][] = [[]];
  for (const line of example.lines.map((l) => l.trim()).filter((l) => l !== '')) {
    if (elision.test(line)) runs.push([]);
    else runs[runs.length - 1]?.push(line);
  }
  let at = 0;
  for (const run of runs.filter((r) => r.length > 0)) {
    let found = -1;
    for (let i = at; i + run.length <= file.length && found < 0; i++) {
      if (run.every((line, k) => file[i + k] === line)) found = i;
    }
    if (found < 0) return run.join('\n');
    at = found + run.length;
  }
  return null;
}

describe('the guides’ TypeScript examples', () => {
  const all = guides.flatMap(examples);
  it('are there', () => expect(all.length).toBeGreaterThan(3));
  it.each(all.map((e) => [`${e.guide}:${e.line}`, e] as const))('%s is an excerpt of the code it names', (_, example) => {
    expect(example.source, 'no <!-- example: path --> line before the block').toBeDefined();
    expect(missingRun(example)).toBeNull();
  });
});
