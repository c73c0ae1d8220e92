// trim-openapi.mjs keeps only the operations runledger calls from
// GitHub's official OpenAPI description, plus every component they reference
// (transitively), so the fake GitHub in the tests validates requests against
// the real contract without committing a 13 MB file.
//
// Usage (from publish/testdata/gen):
//   see README.md; in short, with the package unpacked under oa/:
//   node trim-openapi.mjs oa/package/generated/api.github.com.json ../../../internal/fakegithub/github-openapi.json
import { readFileSync, writeFileSync } from "node:fs";

const [src, dst] = process.argv.slice(2);
if (!src || !dst) {
  console.error("usage: node trim-openapi.mjs <api.github.com.json> <out.json>");
  process.exit(2);
}
const keep = {
  "/repos/{owner}/{repo}/issues/{issue_number}/comments": ["get", "post"],
  "/repos/{owner}/{repo}/issues/comments/{comment_id}": ["patch", "delete"],
  "/repos/{owner}/{repo}/commits/{commit_sha}/pulls": ["get"],
  "/user": ["get"],
  "/repos/{owner}/{repo}/actions/runs/{run_id}/artifacts": ["get"],
  "/repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs": ["get"],
  "/repos/{owner}/{repo}/actions/runs": ["get"],
  "/repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}": ["get"],
  "/repos/{owner}/{repo}/actions/runs/{run_id}/attempts/{attempt_number}/jobs": ["get"],
};
const full = JSON.parse(readFileSync(src, "utf8"));
const out = {
  openapi: full.openapi,
  info: { ...full.info, description: `Trimmed by publish/testdata/gen/trim-openapi.mjs from @octokit/openapi ${process.env.OCTOKIT_OPENAPI_VERSION || "23.0.2"} generated/api.github.com.json` },
  servers: full.servers,
  paths: {},
  components: {},
};
for (const [path, methods] of Object.entries(keep)) {
  const item = full.paths[path];
  if (!item) throw new Error(`path ${path} missing from ${src}`);
  out.paths[path] = {};
  if (item.parameters) out.paths[path].parameters = item.parameters;
  for (const m of methods) {
    if (!item[m]) throw new Error(`${m} ${path} missing from ${src}`);
    out.paths[path][m] = item[m];
  }
}
// Walk the kept tree and copy each referenced component once, then walk it too.
const seen = new Set();
const queue = [out.paths];
while (queue.length) {
  const node = queue.pop();
  if (Array.isArray(node)) { queue.push(...node); continue; }
  if (!node || typeof node !== "object") continue;
  for (const [k, v] of Object.entries(node)) {
    if (k === "$ref" && typeof v === "string") {
      if (seen.has(v)) continue;
      seen.add(v);
      const [, , kind, name] = v.split("/"); // "#/components/<kind>/<name>"
      const target = full.components?.[kind]?.[name];
      if (!target) throw new Error(`unresolved ${v}`);
      (out.components[kind] ??= {})[name] = target;
      queue.push(target);
    } else {
      queue.push(v);
    }
  }
}
// Sorted kinds and names: the output does not depend on the walk's order.
out.components = Object.fromEntries(Object.entries(out.components).sort(([a], [b]) => a.localeCompare(b)));
for (const kind of Object.keys(out.components)) {
  out.components[kind] = Object.fromEntries(Object.entries(out.components[kind]).sort(([a], [b]) => a.localeCompare(b)));
}
writeFileSync(dst, JSON.stringify(out, null, 1) + "\n");
console.error(`wrote ${dst}: ${Object.keys(out.paths).length} paths, ${seen.size} components`);
