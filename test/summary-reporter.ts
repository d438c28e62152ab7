// Ends the test output with each project's time (from its first file's start to its last file's end, files and the
// files' summed time beside it), the run's, and the plain line CI counts: "N passed, N failed" (and skipped, when any).
import type { Reporter, TestModule } from 'vitest/node';
import { hasTool, requiredTools, TOOL_SUITES } from './helpers/tools';

interface Span {
  start: number;
  end: number;
  files: number;
  busy: number;
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

export default class SummaryReporter implements Reporter {
  private readonly runStart = Date.now();
  private readonly spans = new Map<string, Span>();

  onTestModuleStart(mod: TestModule): void {
    const name = mod.project.name || 'default';
    const span = this.spans.get(name) ?? { start: Date.now(), end: Date.now(), files: 0, busy: 0 };
    this.spans.set(name, span);
  }

  onTestModuleEnd(mod: TestModule): void {
    const span = this.spans.get(mod.project.name || 'default');
    if (!span) return;
    span.end = Date.now();
    span.files++;
    span.busy += mod.diagnostic().duration;
  }

  private printTimes(): void {
    const lines = [...this.spans].map(
      ([name, s]) => `  ${name}: ${seconds(s.end - s.start)} (${s.files} files, ${seconds(s.busy)} of file time)`,
    );
    process.stdout.write(`\nTime by project:\n${lines.join('\n')}\n  run: ${seconds(Date.now() - this.runStart)}\n`);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of modules) {
      let tests = 0;
      for (const test of mod.children.allTests()) {
        tests++;
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // A file that fails to load has no tests; count it so a broken suite can never read as green.
      if (tests === 0 && mod.state() === 'failed') failed++;
    }
    failed += unhandledErrors.length;
    // Suites whose tool this machine lacks: named, and failed where the environment requires the tool (CI)
    const ran = new Set(modules.map((m) => m.moduleId));
    for (const suite of TOOL_SUITES) {
      if (hasTool(suite.tool) || [...ran].some((id) => id.endsWith(suite.file))) continue;
      const required = requiredTools().includes(suite.tool);
      if (required) failed++;
      process.stdout.write(
        `${required ? 'FAILED' : 'Not run'}: ${suite.file} needs ${suite.tool}${required ? ' (LOCKBOARD_REQUIRE_TOOLS)' : ''}; install ${suite.install}\n`,
      );
    }
    this.printTimes();
    const tail = skipped ? `, ${skipped} skipped` : '';
    process.stdout.write(`\n${passed} passed, ${failed} failed${tail}\n`);
  }
}
