// Renders GitHub-flavoured Markdown files into HTML pages styled as
// GitHub styles a comment: marked with GFM and comment line breaks,
// github-markdown-css, a 780 px column like a PR timeline's.
// Usage: node render.mjs OUT_DIR FILE.md...
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { marked } from "marked";

const here = fileURLToPath(new URL(".", import.meta.url));
const css = readFileSync(join(here, "node_modules", "github-markdown-css", "github-markdown-light.css"), "utf8");
const [outDir, ...files] = process.argv.slice(2);
marked.setOptions({ gfm: true, breaks: true });
for (const file of files) {
  const html = marked.parse(readFileSync(file, "utf8"));
  const page = `<!doctype html><html><head><meta charset="utf-8"><style>${css}
body { margin: 0; background: #fff; }
.markdown-body { box-sizing: border-box; width: 780px; padding: 16px; margin: 16px; border: 1px solid #d0d7de; border-radius: 6px; }
</style></head><body><div class="markdown-body">${html}</div></body></html>`;
  writeFileSync(join(outDir, basename(file).replace(/\.md$/, ".html")), page);
}
