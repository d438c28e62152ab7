// Ends the test output with the plain line CI counts: "N passed, N failed" (and skipped, when any).
import type { Reporter, TestModule } from 'vitest/node';
import { hasTool, requiredTools, TOOL_SUITES } from './helpers/tools';

export default class SummaryReporter implements Reporter {
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
    const tail = skipped ? `, ${skipped} skipped` : '';
    process.stdout.write(`\n${passed} passed, ${failed} failed${tail}\n`);
  }
}
