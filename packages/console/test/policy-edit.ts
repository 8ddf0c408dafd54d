// The policy page's edits in the browser (docs/console-pages.md "URL-filter policies"), a step of
// console-pages.test.ts: edit a rule's action and criteria, rename the policy and change its default action, each
// read back through the admin API with the tenant's own token; a change made elsewhere meanwhile (the version
// bumped in the database) makes the next save a 409 that the page explains, reloading the policy.
import type { Page } from 'playwright-core';
import { check } from './browser';
import type { ConsoleStack } from './stack';

export async function editRuleAndSettings(input: {
  page: Page;
  stack: ConsoleStack;
  policyId: string;
  tenantToken: string;
}): Promise<void> {
  const { page, stack, policyId } = input;
  const list = page.getByRole('list', { name: 'Rules in order' });
  const policyRow = () => stack.ctx.db.prisma.urlFilterPolicy.findUniqueOrThrow({ where: { id: policyId } });
  /** the policy as an integrator reads it: the admin API with the tenant's token, past the console */
  const adminGet = async (route: string) => {
    const res = await fetch(`${stack.adminUrl}${route}`, { headers: { Authorization: `Bearer ${input.tenantToken}` } });
    expect(res.status).toBe(200);
    return (await res.json()) as any;
  };

  // edit a rule: its action and criteria, saved at the version shown, read back through the admin API
  await list.getByRole('button', { name: 'Edit rule block chat clones' }).click();
  const ruleForm = page.getByRole('form', { name: 'Edit the rule “block chat clones”' });
  await ruleForm.getByLabel('Action', { exact: true }).selectOption('alert');
  await ruleForm.getByLabel('Domains').fill('chat-gpt-free.example *.gpt-clone.example');
  await ruleForm.getByLabel('Minimum risk score').fill('80');
  await ruleForm.getByRole('button', { name: 'Save rule' }).click();
  await page.getByRole('status').filter({ hasText: 'Rule “block chat clones” saved.' }).waitFor();
  const edited = (await adminGet(`/policies/v1/url-filter/${policyId}`)).rules[1];
  expect(edited).toMatchObject({
    name: 'block chat clones',
    action: 'alert',
    domains: ['chat-gpt-free.example', '*.gpt-clone.example'],
    min_risk_score: 80,
  });
  // a rule edit against a policy changed meanwhile: 409, explained in the form, the rule unchanged, the page reloaded
  await list.getByRole('button', { name: 'Edit rule block chat clones' }).click();
  const stale = (await policyRow()).version;
  await stack.ctx.db.prisma.urlFilterPolicy.update({ where: { id: policyId }, data: { version: stale + 1 } });
  await ruleForm.getByLabel('Action', { exact: true }).selectOption('allow');
  await ruleForm.getByRole('button', { name: 'Save rule' }).click();
  await ruleForm.getByRole('alert').filter({ hasText: 'was changed elsewhere' }).waitFor();
  await page
    .getByTestId('policy-version')
    .getByText(String(stale + 1), { exact: true })
    .waitFor();
  expect((await adminGet(`/policies/v1/url-filter/${policyId}`)).rules[1].action).toBe('alert');
  await ruleForm.getByRole('button', { name: 'Cancel' }).click();

  // rename the policy and change its default action; then a stale save is refused, explained, and saved again
  const settings = page.getByRole('form', { name: 'Settings' });
  await settings.getByLabel('Policy name').fill('AI governance (EU)');
  await settings.getByLabel('Default action').selectOption('alert');
  await settings.getByRole('button', { name: 'Save settings' }).click();
  await page.getByRole('heading', { level: 1, name: 'AI governance (EU)' }).waitFor();
  expect(await adminGet(`/policies/v1/url-filter/${policyId}`)).toMatchObject({
    name: 'AI governance (EU)',
    default_action: 'alert',
  });
  const current = (await policyRow()).version;
  await stack.ctx.db.prisma.urlFilterPolicy.update({ where: { id: policyId }, data: { version: current + 1 } });
  await settings.getByLabel('Default action').selectOption('block');
  await settings.getByRole('button', { name: 'Save settings' }).click();
  await settings.getByRole('alert').filter({ hasText: 'was changed elsewhere' }).waitFor();
  await page
    .getByTestId('policy-version')
    .getByText(String(current + 1), { exact: true })
    .waitFor();
  expect((await adminGet(`/policies/v1/url-filter/${policyId}`)).default_action).toBe('alert');
  await check(page, '13b-policy-settings-conflict');
  await settings.getByRole('button', { name: 'Save settings' }).click(); // the draft was kept: saved at the new version
  await settings.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
  expect((await adminGet(`/policies/v1/url-filter/${policyId}`)).default_action).toBe('block');
}
