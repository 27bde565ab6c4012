// Makes the site's learner guide, at build time, from the docs' own page:
//     node learner-guide.mjs docs/learners.md web/site/learners.html DIST
// writes DIST/learners.html (the Markdown rendered with marked, in the page
// frame of web/site/learners.html: its theme switch, links back to the
// playground and the course) and copies the pictures it shows into DIST/guide/.
// The full page links to it, so that the built site, which works offline,
// explains itself. A link that would lead off it (another page of the docs, which the site does not carry,
// or the local server's address) keeps only its text.

import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { Marked } from "marked";

const [source, frame, dist] = process.argv.slice(2);
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

const page = (await readFile(frame, "utf8"))
  .replace("{{title}}", () => escape(title))
  .replace("{{guide}}", () => body);

await writeFile(join(dist, "learners.html"), page);
await mkdir(join(dist, "guide"), { recursive: true });
for (const picture of pictures) {
  await copyFile(join(dirname(source), picture), join(dist, "guide", basename(picture)));
}
