"""The contract between the runner and the page is stated once, in web/shared/contract.json:
the runner sends tables of exactly its fields, the page reads exactly those, and a cap
changed there is the runner's and the page's at once. The page's side is its own
protocol.js, run in Node."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import build
from tests.web.contract import CONTRACT, FILE
from tests.web.runs import MINE, STRAY_OPERAND, run
from tests.web.tables import assert_page_reads

PROTOCOL = build.WEB / "page" / "protocol.js"
FIELDS = list(CONTRACT["table"]["fields"])
# The graphs a run can leave: the engine's with a Backward (steps, forward rules), and
# a learner's own classes with odd values (data that is not a number, an operand that
# is not a node); the engine's own nodes hold a long label.
GRAPHS = (
    "from engine import Backward, Graph, MakeValue, VMul, VTanh\n"
    "g = Graph()\n"
    "a = MakeValue(g, 0.5, label='a' * 500)\n"
    "Backward(g, VTanh(g, VMul(g, a, a)))\n"
) + MINE + "odd = Mine(Node('one'))\n" + STRAY_OPERAND
PAGE_SAYS = """
import { pathToFileURL } from "node:url";
const { parseResult } = await import(pathToFileURL(process.argv[1]).href);
let input = "";
for await (const chunk of process.stdin) input += chunk;
const said = JSON.parse(input).map((result) => {
  try {
    parseResult(result);
    return null;
  } catch (error) {
    return `${error.constructor.name}: ${error.message}`;
  }
});
console.log(JSON.stringify(said));
"""


def page_says(results: list[str], protocol: Path = PROTOCOL) -> list[str | None]:
    """What the page (`protocol`, a protocol.js) says of each result: None when it reads
    it, else its error."""
    node = build.need("node", "nodejs")
    done = subprocess.run([node, "--input-type=module", "-e", PAGE_SAYS, str(protocol)],
                          input=json.dumps(results), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def with_tables(*tables: dict) -> str:
    return json.dumps({"status": "done", "error": None, "line": None, "tables": tables})


def runner_tables() -> list[dict]:
    result, _ = run(GRAPHS)
    assert result["status"] == "done", result["error"]
    return result["tables"]


def test_the_runner_sends_tables_of_exactly_the_contracts_fields_and_the_page_reads_them():
    tables = runner_tables()
    assert [t["title"] for t in tables] == ["g", "odd", "mine"]
    for table in tables:
        assert sorted(table) == sorted(FIELDS)
        assert_page_reads(table)
    assert tables[0]["steps"] and tables[0]["forward"] and tables[0]["fullLabel"]
    assert tables[1]["notNumbers"]["data"] and tables[2]["missingOperands"]
    assert page_says([with_tables(*tables)]) == [None]


def test_the_page_refuses_a_table_without_one_of_the_fields_or_with_one_more():
    table = runner_tables()[0]
    without = [with_tables({k: v for k, v in table.items() if k != name}) for name in FIELDS]
    said = page_says([*without, with_tables({**table, "notAField": [2]}), with_tables(table)])
    assert said == [*(f'Malformed: table 0 has no "{name}"' for name in FIELDS),
                    'Malformed: table 0 has "notAField", which the runner never sends', None]


def test_the_page_names_the_field_of_a_table_that_is_not_the_runners():
    table = runner_tables()[0]
    count = table["count"]
    bad = {"count": -1, "label": [1] * count, "data": ["one"] * count, "args": [[count]] * count,
           "notes": ["a note"] * 4, "steps": [{"node": count, "terms": []}]}
    said = page_says([with_tables(table, {**table, name: value}) for name, value in bad.items()])
    assert said == [f'Malformed: table 1 has a bad "{name}"' for name in bad]


RUN_THREE_GRAPHS = """
import json, sys
sys.path[:0] = sys.argv[1:]
import playground_runner
code = "from engine import Graph\\na, b, c = Graph(), Graph(), Graph()\\n"
print(playground_runner.take().run(code, lambda batch: None))
"""


def test_a_cap_changed_in_the_contract_is_the_runners_and_the_pages(tmp_path):
    """A copy of the runner and of the page's protocol.js, beside a contract whose run
    sends 2 tables at most: the runner sends 2 of 3 graphs, and the page reads them but
    refuses 3."""
    for part in ("page", "playground_runner"):
        shutil.copytree(build.WEB / part, tmp_path / part,
                        ignore=shutil.ignore_patterns("__pycache__"))
    contract = json.loads(FILE.read_text(encoding="utf-8"))
    contract["table"]["perRun"] = 2
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "contract.json").write_text(json.dumps(contract), encoding="utf-8")
    ran = subprocess.run([sys.executable, "-c", RUN_THREE_GRAPHS, str(tmp_path), str(build.ROOT)],
                         capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    result = json.loads(ran.stdout)
    assert [t["title"] for t in result["tables"]] == ["a", "b"]
    three = json.loads(ran.stdout)
    three["tables"].append(three["tables"][0])
    assert page_says([ran.stdout, json.dumps(three)], tmp_path / "page" / "protocol.js") == [
        None, "Malformed: more than 2 tables"]
