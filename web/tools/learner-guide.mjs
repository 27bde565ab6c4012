// Makes the site's learner guide, at build time, from the docs' own page:
//     node learner-guide.mjs docs/learners.md DIST
// writes DIST/learners.html (the Markdown rendered with marked, in the site's
// page frame: its theme switch, links back to the playground and the course)
// and copies the pictures it shows into DIST/guide/. The full page links to it,
// so that the built site, which works offline, explains itself. A link that
// would lead off it (another page of the docs, which the site does not carry,
// or the local server's address) keeps only its text.

import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { Marked } from "marked";

const [source, dist] = process.argv.slice(2);
const pictures = new Set();

/** GitHub's and MkDocs' anchor for a heading: lower case, words joined by "-". */
const slug = (text) => text.toLowerCase().replace(/[^\w\s-]/g, "").trim().replace(/\s+/g, "-");

const escape = (text) => text.replace(/[&<>"]/g, (c) => `&${{ "&": "amp", "<": "lt", ">": "gt", '"': "quot" }[c]};`);

const marked = new Marked({
  renderer: {
    heading({ tokens, depth, text }) {
      return `<h${depth} id="${slug(text)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
    },
    link({ href, tokens }) {
      const inner = this.parser.parseInline(tokens);
      return /^(#|https:)/.test(href) ? `<a href="${escape(href)}">${inner}</a>` : inner;
    },
    image({ href, text }) {
      pictures.add(href);
      return `<img src="guide/${escape(basename(href))}" alt="${escape(text)}" loading="lazy">`;
    },
  },
});

const markdown = await readFile(source, "utf8");
const title = markdown.match(/^# (.+)$/m)[1];
const body = marked.parse(markdown);

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="color-scheme" content="light dark">
  <link rel="icon" href="data:,">
  <script src="page-theme.js"></script>
  <title>${escape(title)}</title>
  <meta name="description" content="How to use the autograd playground: running code, the table, the picture, Backward step by step, charts, keys.">
  <style>
    body { max-width: 52rem; margin: 0 auto; padding: 1rem 1.25rem 4rem; font: 1.05rem/1.6 system-ui, sans-serif; background: Canvas; color: CanvasText; }
    h1, h2, h3 { line-height: 1.25; }
    a { color: LinkText; }
    code { font-family: ui-monospace, monospace; font-size: 0.92em; }
    img { max-width: 100%; height: auto; border: 1px solid GrayText; }
    nav { display: flex; flex-wrap: wrap; gap: 0.5rem 1.25rem; align-items: baseline; font-size: 0.95rem; }
    .page-theme { margin: 0 0 0 auto; }
    .page-theme select { font: inherit; }
  </style>
</head>
<body>
<nav aria-label="Site">
  <a href="index.html">The playground</a>
  <a href="course.html">The course page</a>
  <p class="page-theme"><label for="page-theme">Theme</label>
    <select id="page-theme">
      <option value="system">System</option>
      <option value="light">Light</option>
      <option value="dark">Dark</option>
    </select></p>
</nav>
<main>
${body}</main>
</body>
</html>
`;

await writeFile(join(dist, "learners.html"), page);
await mkdir(join(dist, "guide"), { recursive: true });
for (const picture of pictures) {
  await copyFile(join(dirname(source), picture), join(dist, "guide", basename(picture)));
}
