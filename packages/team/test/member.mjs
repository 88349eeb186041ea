// A simulated team member in its own process (team tests): HIVE_MIND_HOME is its home.
// argv: JSON {member, saves, syncEvery, forgetOwnFirst, supersede: [{content, of: text}], tag}
// Prints one JSON line: {saved: [{uid, content}], superseded: [...], forgot: [...], syncs: n, errors: [...]}
import { Mind } from '../../mind/dist/index.js';
import { connectionFor, readTeamFile, cacheMindPath, syncTeam } from '../dist/index.js';

const plan = JSON.parse(process.argv[2]);
const conn = connectionFor(readTeamFile());
const machine = readTeamFile().machine;
const out = { saved: [], superseded: [], forgot: [], syncs: 0, errors: [] };
const withLocal = (fn) => {
  const m = Mind.open(cacheMindPath(conn));
  try {
    return fn(m, m.team(conn.team));
  } finally {
    m.close();
  }
};
const sync = async () => {
  const r = await syncTeam(conn, { deadlineMs: 60_000 });
  out.syncs++;
  if (r.error) out.errors.push(r.error);
};
for (let i = 0; i < plan.saves; i++) {
  const content = `${plan.tag} member ${plan.member} fact ${i}: the build of service-${plan.member}-${i} runs on port ${4000 + i}`;
  const r = withLocal((m, t) => t.save({ content, kind: 'fact', source: 'user_stated', host: 'cli', sessionId: `s-${plan.member}` }, { member: conn.member, machine }));
  out.saved.push({ uid: r.frameUids[0], content, id: r.id });
  if (plan.syncEvery && (i + 1) % plan.syncEvery === 0) await sync();
}
if (plan.forgetOwnFirst && out.saved.length) {
  withLocal((m) => m.forget(out.saved[0].id));
  out.forgot.push(out.saved[0].uid);
}
await sync();
for (const s of plan.supersede ?? []) {
  // supersede a frame another member saved (pulled by the sync above, or by a later one: its
  // author may not have pushed it yet)
  const find = () => withLocal((m, t) => {
    const hit = m.list({ limit: 100000, includeRetired: true }).find((f) => f.scope === 'team' && f.content === s.of);
    if (!hit) return undefined;
    const r = t.save({ content: s.content, kind: 'fact', source: 'user_stated', supersedes: hit.id }, { member: conn.member, machine });
    return { uid: r.frameUids[0], of: t.uidOf(hit.id) ?? null, content: s.content };
  });
  let done = find();
  for (let i = 0; !done && i < (plan.waitSyncs ?? 0); i++) {
    await new Promise((r) => setTimeout(r, 300));
    await sync();
    done = find();
  }
  if (done) out.superseded.push(done);
  else out.errors.push(`nothing to supersede: ${s.of}`);
}
await sync();
process.stdout.write(JSON.stringify(out) + '\n');
