import { marked } from 'marked';
import { readFileSync, writeFileSync } from 'node:fs';
const md = readFileSync(process.argv[2], 'utf8');
const css = `body{font-family:-apple-system,"Segoe UI","DejaVu Sans",Helvetica,Arial,sans-serif;font-size:14px;line-height:1.5;color:#1f2328;max-width:860px;margin:16px;padding:16px;border:1px solid #d0d7de;border-radius:6px}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #d0d7de;padding:4px 10px}th{background:#f6f8fa}
pre{background:#f6f8fa;padding:10px;border-radius:6px;font-size:12px;overflow:auto}code{font-family:"DejaVu Sans Mono",monospace;font-size:12px;background:#f6f8fa;padding:1px 4px;border-radius:4px}
details summary{cursor:pointer;color:#57606a}`;
writeFileSync(process.argv[3], `<!doctype html><meta charset="utf-8"><style>${css}</style><body>${marked.parse(md)}</body>`);
