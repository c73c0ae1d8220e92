// gen-events.mjs writes the event payload fixtures under publish/testdata/events
// from GitHub's real webhook examples (@octokit/webhooks-examples), trimmed of
// link fields and nested lists the publisher never reads, so the fixtures stay
// small while keeping the real shape.
//
// The examples hold no fork pull request, so the *.fork.json fixtures are the
// real same-repo payloads with the head repository rewritten to a fork the way
// GitHub sends it (head.repo is another repository with fork: true, and
// workflow_run.pull_requests is empty). They are marked "_derived" so nobody
// mistakes them for verbatim examples.
//
// Usage (from publish/testdata/gen):
//   see README.md; in short, with the package unpacked under wh/:
//   node gen-events.mjs wh/package/api.github.com/index.json ../events
import { readFileSync, writeFileSync } from "node:fs";

const [src, dir] = process.argv.slice(2);
if (!src || !dir) {
  console.error("usage: node gen-events.mjs <api.github.com/index.json> <outdir>");
  process.exit(2);
}
const all = JSON.parse(readFileSync(src, "utf8"));
const examples = (name) => all.find((e) => e.name === name).examples;
const pick = (name, pred) => {
  const x = examples(name).find(pred);
  if (!x) throw new Error(`no ${name} example matches ${pred}`);
  return structuredClone(x);
};
const drop = new Set(["_links", "topics", "license", "labels", "requested_reviewers", "requested_teams", "assignees", "body", "custom_properties"]);
function trim(v) {
  if (Array.isArray(v)) return v.map(trim);
  if (!v || typeof v !== "object") return v;
  const out = {};
  for (const [k, x] of Object.entries(v)) {
    if (drop.has(k)) continue;
    if (k.endsWith("_url") && k !== "html_url") continue;
    out[k] = trim(x);
  }
  return out;
}
function write(name, payload) {
  writeFileSync(`${dir}/${name}`, JSON.stringify(trim(payload), null, 1) + "\n");
  console.error(`wrote ${dir}/${name}`);
}
function forkHead(repo) {
  return {
    ...repo,
    id: repo.id + 1000,
    node_id: "R_kgDOforked",
    name: repo.name,
    full_name: `forker/${repo.name}`,
    owner: { ...repo.owner, login: "forker", id: 4242, node_id: "U_kgDOforker" },
    html_url: repo.html_url.replace(repo.full_name, `forker/${repo.name}`),
    url: repo.url.replace(repo.full_name, `forker/${repo.name}`),
    fork: true,
  };
}

const opened = pick("pull_request", (x) => x.action === "opened");
write("pull_request.opened.json", opened);
write("pull_request.synchronize.json", pick("pull_request", (x) => x.action === "synchronize"));

const fork = structuredClone(opened);
fork._derived = "pull_request.opened.json with head.repo rewritten to a fork";
fork.pull_request.head.repo = forkHead(fork.pull_request.head.repo);
fork.pull_request.head.label = `forker:${fork.pull_request.head.ref}`;
fork.pull_request.head.user = fork.pull_request.head.repo.owner;
write("pull_request.opened.fork.json", fork);

write("push.json", pick("push", (x) => x.ref.startsWith("refs/heads/") && !x.deleted));

const wrSame = pick("workflow_run", (x) => x.workflow_run.pull_requests.length > 0);
write("workflow_run.completed.json", wrSame);
const wrFork = structuredClone(wrSame);
wrFork._derived = "workflow_run.completed.json as GitHub sends it for a fork pull request";
wrFork.workflow_run.event = "pull_request";
wrFork.workflow_run.pull_requests = [];
wrFork.workflow_run.head_repository = forkHead(wrFork.workflow_run.head_repository);
write("workflow_run.completed.fork.json", wrFork);
