// `pnpm install` runs this (the root `prepare` script): installs the git hooks of lefthook.yml (the commit
// message check, CONTRIBUTING.md "Commits") in a developer's clone. It does nothing where hooks have no use or no
// home, so an install never fails because of it: in CI, and in a copy of the tree outside a git work tree
// (.ci/run's second install with the newest pnpm).
const { execFileSync } = require('node:child_process');

function insideWorkTree() {
  try {
    return (
      execFileSync('git', ['rev-parse', '--is-inside-work-tree'], { encoding: 'utf8', stdio: 'pipe' }).trim() === 'true'
    );
  } catch {
    return false;
  }
}

if (process.env.CI || !insideWorkTree()) process.exit(0);
try {
  execFileSync('pnpm', ['exec', 'lefthook', 'install'], { stdio: 'inherit' });
} catch (error) {
  // a missing hook is a developer's inconvenience, not a reason to fail their install
  console.warn(`git hooks not installed (${error.message}); run \`pnpm exec lefthook install\` by hand`);
}
