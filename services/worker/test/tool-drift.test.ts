import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mintApiKey } from '@risk/common/api-keys';
import request from 'supertest';
import { startWorker, type RunningWorker } from '../src';
import { createWorkerHarness, type WorkerHarness } from './harness';

// MCP tool drift ("rug pull", docs/drift.md) through the real API, queue, worker job, Postgres and Redis: one MCP
// server observed five times. The manifest is a tools/list response of the reference "everything" server
// (test/fixtures/everything-tools-list.json), edited the way a rug pull edits it.
const TOOLS_LIST = readFileSync(join(__dirname, 'fixtures/everything-tools-list.json'), 'utf8');
type Tool = { name: string; description: string; inputSchema: unknown };
const baseTools = (): Tool[] => (JSON.parse(TOOLS_LIST) as { result: { tools: Tool[] } }).result.tools;
const manifest = (tools: Tool[]) => JSON.stringify({ jsonrpc: '2.0', id: 2, result: { tools } }, null, 2);
const DRIFT = ['R30', 'R31', 'R32', 'R33'];

describe('MCP tool drift (real worker job)', () => {
  let h: WorkerHarness;
  let worker: RunningWorker;
  let otherKey: string;
  let seq = 0;
  const fp = `mcp:io.github.modelcontextprotocol/server-everything:${Date.now()}`;

  beforeAll(async () => {
    h = await createWorkerHarness('tooldrift');
    worker = startWorker(h.deps, { maintenance: false });
    ({ key: otherKey } = await mintApiKey(h.ctx.db.prisma, {
      org_id: 'org_tooldrift_other',
      scopes: ['assets:read'],
      livemode: true,
    }));
  });
  afterAll(async () => {
    await worker.close();
    await h.close();
  });

  /** The org's next observation (a later observed_at replaces its previous one), enriched by the worker. */
  async function observe(tools: Tool[]) {
    seq++;
    const res = await h.submit({
      fingerprint: fp,
      asset_type: 'mcp_server',
      name: '@modelcontextprotocol/server-everything',
      raw_manifest: manifest(tools),
      observed_at: Math.floor(Date.now() / 1000) - 100 + seq,
    });
    expect(res.status).toBe(202);
    await h.waitForAsset(fp, (a) => a.enrichment_status === 'enriched' && a.enriched_digest === a.latest_digest);
  }

  let seen = new Set<string>();
  /** The events recorded for the asset since the last call, oldest first. */
  async function newEvents() {
    const rows = await h.ctx.db.prisma.event.findMany({
      where: { fingerprint: fp, livemode: true },
      orderBy: { id: 'asc' },
    });
    const fresh = rows.filter((e) => !seen.has(e.id));
    seen = new Set(rows.map((e) => e.id));
    return fresh.map((e) => ({ type: e.type, data: e.data as Record<string, any> }));
  }

  async function driftFindings() {
    const res = await request(h.app)
      .get(`/v1/assets/${encodeURIComponent(fp)}/findings?limit=100`)
      .set('Authorization', `Bearer ${h.key}`);
    expect(res.status).toBe(200);
    return (res.body.data as Array<{ id: string; rule_id: string; severity: string; evidence: Record<string, any> }>)
      .filter((f) => DRIFT.includes(f.rule_id))
      .sort((a, b) => (a.rule_id < b.rule_id ? -1 : 1));
  }

  const toolsEvent = (events: Awaited<ReturnType<typeof newEvents>>) => {
    const e = events.filter((x) => x.type === 'asset.tools_changed');
    expect(e).toHaveLength(1);
    return e[0]!.data.tools;
  };

  it('baseline, description changed, renamed, shell tool added, restored: exactly the expected findings and events', async () => {
    // 1. first observation: the baseline. No drift finding, no tools event.
    await observe(baseTools());
    expect(await driftFindings()).toEqual([]);
    let events = await newEvents();
    expect(events.map((e) => e.type).sort()).toEqual(['asset.created', 'asset.enriched']);
    const baseline = await h.ctx.db.prisma.assetToolBaseline.findMany({ where: { livemode: true, fingerprint: fp } });
    expect(baseline.map((b) => [b.name, b.original, b.current_hash !== null]).sort()).toEqual([
      ['add', true, true],
      ['echo', true, true],
      ['getTinyImage', true, true],
      ['longRunningOperation', true, true],
    ]);

    // 2. the description of an existing tool changes
    const changed = baseTools();
    changed[0]!.description = 'Echoes back the input message, upper-cased';
    await observe(changed);
    let findings = await driftFindings();
    expect(findings.map((f) => f.rule_id)).toEqual(['R30']);
    expect(findings[0]!.evidence).toMatchObject({
      tool: 'echo',
      changed: ['description'],
      before: { name: 'echo', description: 'Echoes back the input' },
      after: { name: 'echo', description: 'Echoes back the input message, upper-cased' },
    });
    events = await newEvents();
    expect(events.map((e) => e.type).sort()).toEqual([
      'asset.aibom_changed',
      'asset.enriched',
      'asset.risk_changed',
      'asset.tools_changed',
    ]);
    expect(toolsEvent(events)).toEqual({
      added_count: 0,
      removed_count: 0,
      changed_count: 1,
      added: [],
      removed: [],
      changed: ['echo'],
      drift_findings: [{ id: findings[0]!.id, rule_id: 'R30', severity: 'medium' }],
    });
    const risk = events.find((e) => e.type === 'asset.risk_changed')!.data;
    expect(risk.summary.risk.score.from).toBe(0);
    expect(risk.summary.findings).toMatchObject({
      added_count: 1,
      removed_count: 0,
      added: [{ id: findings[0]!.id, rule_id: 'R30' }],
    });

    // 3. a tool is renamed with an identical schema (the description change stays)
    const renamed = structuredClone(changed);
    renamed[1]!.name = 'sum';
    await observe(renamed);
    findings = await driftFindings();
    expect(findings.map((f) => f.rule_id)).toEqual(['R30', 'R31']);
    expect(findings[1]!.evidence).toMatchObject({
      tool: 'sum',
      renamed_from: 'add',
      before: { name: 'add' },
      after: { name: 'sum' },
    });
    events = await newEvents();
    expect(events.map((e) => e.type).sort()).toEqual([
      'asset.aibom_changed',
      'asset.enriched',
      'asset.risk_changed',
      'asset.tools_changed',
    ]);
    expect(toolsEvent(events)).toMatchObject({ added: ['sum'], removed: ['add'], changed: [] });

    // 4. a tool with shell capability is added
    const shell = [
      ...structuredClone(renamed),
      {
        name: 'run_command',
        description: 'Runs a shell command on the server and returns its output',
        inputSchema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
      },
    ];
    await observe(shell);
    findings = await driftFindings();
    expect(findings.map((f) => [f.rule_id, f.severity])).toEqual([
      ['R30', 'medium'],
      ['R31', 'medium'],
      ['R33', 'high'],
    ]);
    expect(findings[2]!.evidence).toMatchObject({
      capability: 'shell',
      tools: [{ name: 'run_command' }],
      before: [],
      after: ['shell'],
    });
    events = await newEvents();
    expect(toolsEvent(events)).toMatchObject({ added: ['run_command'], removed: [], changed: [] });
    expect(events.map((e) => e.type).sort()).toEqual([
      'asset.aibom_changed',
      'asset.enriched',
      'asset.risk_changed',
      'asset.tools_changed',
    ]);

    // 5. the server restores its first tool list: every drift finding clears, and the change is an event
    await observe(baseTools());
    expect(await driftFindings()).toEqual([]);
    events = await newEvents();
    expect(events.map((e) => e.type).sort()).toEqual([
      'asset.aibom_changed',
      'asset.enriched',
      'asset.risk_changed',
      'asset.tools_changed',
    ]);
    expect(toolsEvent(events)).toEqual({
      added_count: 1,
      removed_count: 2,
      changed_count: 1,
      added: ['add'],
      removed: ['run_command', 'sum'],
      changed: ['echo'],
      drift_findings: [],
    });
    const riskBack = events.find((e) => e.type === 'asset.risk_changed')!.data;
    expect(riskBack.summary.risk.score.to).toBe(0);
    expect(riskBack.summary.findings.removed.map((f: { rule_id: string }) => f.rule_id).sort()).toEqual(
      expect.arrayContaining(['R30', 'R31', 'R33']),
    );
    // the baseline is the first definition of each name: the restored list matches it again
    const rows = await h.ctx.db.prisma.assetToolBaseline.findMany({ where: { livemode: true, fingerprint: fp } });
    expect(rows.filter((r) => r.current_hash !== null && r.current_hash !== r.definition_hash)).toEqual([]);
    expect(rows.map((r) => [r.name, r.original]).sort()).toEqual([
      ['add', true],
      ['echo', true],
      ['getTinyImage', true],
      ['longRunningOperation', true],
      ['run_command', false],
      ['sum', false],
    ]);

    // the events reach the org that observed the asset, never another org of the mode
    const mine = await request(h.app)
      .get('/v1/events?type=asset.tools_changed&limit=100')
      .set('Authorization', `Bearer ${h.key}`);
    expect(mine.status).toBe(200);
    expect(
      mine.body.data.filter((e: { data: { object: { fingerprint: string } } }) => e.data.object.fingerprint === fp),
    ).toHaveLength(4);
    const theirs = await request(h.app)
      .get('/v1/events?type=asset.tools_changed&limit=100')
      .set('Authorization', `Bearer ${otherKey}`);
    expect(theirs.status).toBe(200);
    expect(theirs.body.data).toEqual([]);
  });
});
