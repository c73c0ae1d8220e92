// Drives `runledger mcp --allow-run` over stdio with the official MCP
// TypeScript SDK, as an agent would: list the tools, run a failing command,
// read the first cited excerpt back with show and check its sha256.
// Usage: node client.mjs RUNLEDGER_BINARY WORKDIR
// Prints one JSON object on stdout; exits 1 on any mismatch.
import { createHash } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [bin, cwd] = process.argv.slice(2);
const script = `echo "setup ok"; printf -- '--- FAIL: TestParse (0.00s)\\n    parse_test.go:42: got 1, want 2\\nFAIL\\nFAIL\\texample.com/pkg\\t0.01s\\n'; exit 1`;

function fail(msg, detail) {
  console.error(`client: ${msg}`, detail === undefined ? "" : JSON.stringify(detail));
  process.exit(1);
}

const transport = new StdioClientTransport({ command: bin, args: ["mcp", "--allow-run"], cwd, stderr: "inherit" });
const client = new Client({ name: "runledger-test-client", version: "0.0.0" });
await client.connect(transport);

const { tools } = await client.listTools();
const names = tools.map((t) => t.name).sort();

const run = await client.callTool({ name: "run", arguments: { command: script, name: "unit" } });
if (run.isError) fail("run is a tool error", run.content);
const out = run.structuredContent;
if (out.status !== "failed" || out.run.exit_code !== 1) fail("run result", out);
const ex = out.run.excerpts[0];
if (!ex) fail("no excerpt", out);

const range = `${ex.start}:${ex.end}`;
const show = await client.callTool({ name: "show", arguments: { run: out.run.id, stream: ex.stream, range } });
if (show.isError) fail("show is a tool error", show.content);
const bytes = Buffer.from(show.structuredContent.text, "utf8");
const shown = createHash("sha256").update(bytes).digest("hex");
if (shown !== ex.sha256) fail(`sha256 of the shown bytes ${shown} is not the excerpt's ${ex.sha256}`);

const bad = await client.callTool({ name: "show", arguments: { run: out.run.id, stream: ex.stream, range: `0:${1 << 30}` } });

console.log(JSON.stringify({
  tools: names,
  status: out.status,
  exit_code: out.run.exit_code,
  run_id: out.run.id,
  range,
  excerpt_sha256: ex.sha256,
  shown_sha256: shown,
  out_of_range_is_error: bad.isError === true,
  run_text: run.content[0].text,
}));
await client.close();
