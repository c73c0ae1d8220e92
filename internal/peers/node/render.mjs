// Renders GitHub-flavoured Markdown files into HTML pages styled as
// GitHub styles them: marked with GFM and github-markdown-css.
// Usage: node render.mjs OUT_DIR FILE.md...
//   A comment (the default): comment line breaks, a 780 px column like a
//   PR timeline's.
//   RENDER_DOCUMENT=ROOT: a repository file, as GitHub shows README.md:
//   no comment line breaks, a 980 px column, relative links and images
//   resolved against ROOT (the repository's root; each file's own
//   directory under it), and on load the page records in
//   body[data-broken-images] how many images did not load.
import { readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { marked } from "marked";

const here = fileURLToPath(new URL(".", import.meta.url));
const css = readFileSync(join(here, "node_modules", "github-markdown-css", "github-markdown-light.css"), "utf8");
const [outDir, ...files] = process.argv.slice(2);
const docRoot = process.env.RENDER_DOCUMENT;
marked.setOptions({ gfm: true, breaks: !docRoot });
for (const file of files) {
  const html = marked.parse(readFileSync(file, "utf8"));
  let head = "", width = 780, tail = "";
  if (docRoot) {
    const dir = resolve(docRoot, relative(resolve(docRoot), dirname(resolve(file))));
    head = `<base href="${pathToFileURL(dir + "/").href}">`;
    width = 980;
    tail = `<script>addEventListener("load", () => { document.body.dataset.brokenImages = [...document.images].filter(i => !(i.complete && i.naturalWidth > 0)).length; document.body.dataset.h = Math.ceil(document.querySelector(".markdown-body").getBoundingClientRect().bottom) + 16; });</script>`;
  }
  const page = `<!doctype html><html><head><meta charset="utf-8">${head}<style>${css}
body { margin: 0; background: #fff; }
.markdown-body { box-sizing: border-box; width: ${width}px; padding: 16px; margin: 16px; border: 1px solid #d0d7de; border-radius: 6px; }
</style></head><body><div class="markdown-body">${html}</div>${tail}</body></html>`;
  writeFileSync(join(outDir, basename(file).replace(/\.md$/, ".html")), page);
}
