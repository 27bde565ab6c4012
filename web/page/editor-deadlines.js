// The page's deadlines (deadlines.js) as the editor's extensions read them, from the
// editor's state: the editor's script runs on its own (it may be imported from a blob:
// URL, see editor-script.js), with no copy of the page's modules, so the page hands it
// its deadlines object (createEditor), whose changes, a test's, it then sees.

import { Facet } from "@codemirror/state";

export const pageDeadlines = Facet.define({ combine: (values) => values[0] });
