// Commit messages (CONTRIBUTING.md "Commits"): Conventional Commits with a short subject and a body that says
// why. Checked by the commit-msg hook (lefthook.yml) on every commit.
module.exports = {
  extends: ['@commitlint/config-conventional'],
  rules: {
    'type-enum': [2, 'always', ['feat', 'fix', 'refactor', 'perf', 'test', 'docs', 'build', 'ci', 'chore', 'revert']],
    'header-max-length': [2, 'always', 72],
    // the subject says what, the body why: a change nobody can explain later is a change nobody can review now
    'body-empty': [2, 'never'],
    // wrapping is the editor's business; a long URL or path in a body is fine
    'body-max-line-length': [0],
    'footer-max-line-length': [0],
  },
};
