// `type=op` of the simulated PAN-OS XML API: `show system info`, `show jobs id` (which finishes a commit job:
// validation, then running = candidate and the EDLs re-read), and `request system external-list refresh`.
import { clone, escapeXml, members, parseXml, path, type XmlNode } from '../../../lib/xml-tree';
import { panPredefinedCategories } from '../pan-db';
import { handleEdlRefresh, syncEdls } from './edl';
import { response, type ApiReply } from './reply';
import { STRICTNESS, vsysOf, type PanosJob, type PanosSimulatorState } from './state';

/** Every profile member must name a custom URL category, an External Dynamic List or a predefined category. */
function validateCandidate(state: PanosSimulatorState): string[] {
  const vsys = vsysOf(state.candidate);
  const names = new Set([
    ...(path(vsys, 'profiles', 'custom-url-category')?.children ?? []).map((c) => c.attrs.name),
    ...(path(vsys, 'external-list')?.children ?? []).map((c) => c.attrs.name),
    ...panPredefinedCategories,
  ]);
  const problems: string[] = [];
  for (const profile of path(vsys, 'profiles', 'url-filtering')?.children ?? []) {
    for (const action of STRICTNESS) {
      for (const member of members(path(profile, action))) {
        if (!names.has(member))
          problems.push(`url-filtering -> ${profile.attrs.name} -> ${action} '${member}' is not a valid reference`);
      }
    }
  }
  return problems;
}

async function finishCommit(state: PanosSimulatorState, job: PanosJob): Promise<void> {
  const problems = validateCandidate(state);
  job.status = 'FIN';
  if (problems.length) {
    job.result = 'FAIL';
    job.details = ['Validation Error:', ...problems, 'Commit failed'];
    return;
  }
  job.result = 'OK';
  job.details = ['Configuration committed successfully'];
  state.running = clone(state.candidate);
  state.dirty = false;
  await syncEdls(state); // a committed EDL is pulled at once, as the device does
}

async function showJob(state: PanosSimulatorState, input: { root: XmlNode; commitPolls: number }): Promise<ApiReply> {
  const id = Number(path(input.root, 'jobs', 'id')?.text);
  const job = state.jobs.find((j) => j.id === id);
  if (!job) return { http: 200, body: response('error', undefined, `<msg><line>job ${id} not found</line></msg>`) };
  job.polls++;
  if (job.status === 'ACT' && job.polls > input.commitPolls) await finishCommit(state, job);
  const details = job.details.map((line) => `<line>${escapeXml(line)}</line>`).join('');
  const progress = job.status === 'FIN' ? '100' : '55';
  return {
    http: 200,
    body: response(
      'success',
      undefined,
      `<result><job><tenq>2026/01/01 00:00:00</tenq><id>${job.id}</id><type>Commit</type><status>${job.status}</status><result>${job.result}</result><progress>${progress}</progress><details>${details}</details><warnings/></job></result>`,
    ),
  };
}

export async function handleOp(
  state: PanosSimulatorState,
  input: { cmd: string; commitPolls: number },
): Promise<ApiReply> {
  let nodes: XmlNode[];
  try {
    nodes = parseXml(input.cmd);
  } catch {
    return { http: 200, body: response('error', '18', '<msg><line>Malformed Request</line></msg>') };
  }
  const root = nodes[0];
  if (root?.tag === 'show' && path(root, 'system', 'info')) {
    const info = Object.entries(state.systemInfo)
      .map(([k, v]) => `<${k}>${escapeXml(v)}</${k}>`)
      .join('');
    return { http: 200, body: response('success', undefined, `<result><system>${info}</system></result>`) };
  }
  if (root?.tag === 'show' && path(root, 'jobs', 'id')) return showJob(state, { root, commitPolls: input.commitPolls });
  if (root?.tag === 'request' && path(root, 'system', 'external-list', 'refresh')) return handleEdlRefresh(state, root);
  return { http: 200, body: response('error', '17', '<msg><line>Invalid command</line></msg>') };
}
