"""What the Python worker says of a run reaches a cross-origin isolated page through
shared memory (web/shared/mailbox.js), not as posted messages, which Chromium holds
back after each key and click until it has drawn the next frame; without isolation,
through the port, as before. While a run is in flight, the page also takes what has
come as each frame starts, so that a result in by then is painted in that frame."""

from tests.web.conftest import RUN_MS

HOLD_RUN_MESSAGES = """
// The page's posted messages of a run (output, tables, result, the ping's answer) are
// held back for good: a stand-in for the browser's hold after a key, without its frame.
const port = Object.getOwnPropertyDescriptor(MessagePort.prototype, "onmessage");
const RUN_MESSAGES = ["output", "plots", "tables", "result", "pong"];
globalThis.heldMessages = 0;
Object.defineProperty(MessagePort.prototype, "onmessage", {
  get() { return port.get.call(this); },
  set(handler) {
    port.set.call(this, (event) => {
      if (RUN_MESSAGES.includes(event.data?.type)) globalThis.heldMessages++;
      else handler(event);
    });
  },
  configurable: true,
});
"""

HOLD_WAKE_UPS = """
// The mailbox's wake-ups never come: a stand-in for Chromium's running them only after
// the frame it draws for a key's edit, without its end.
const waitAsync = Atomics.waitAsync;
globalThis.heldWakeUps = 0;
Atomics.waitAsync = (...args) => {
  const waiting = waitAsync(...args);
  if (!waiting.async) return waiting;
  globalThis.heldWakeUps++;
  return { async: true, value: new Promise(() => {}) };
};
"""


def hold_wake_ups(context) -> None:
    context.add_init_script(HOLD_WAKE_UPS)


# Longer than the mailbox (1 MiB): each "€" is six characters of JSON in the runner's
# batch, and seven once the batch is itself a string in the message.
LONG_LINE = "€" * 240_000


def hold_run_messages(context) -> None:
    context.add_init_script(HOLD_RUN_MESSAGES)


def test_a_run_ends_with_its_output_and_table_while_posted_messages_are_held(
        open_playground, site):
    playground = open_playground(site, setup=hold_run_messages)
    assert playground.run() == "done"
    assert playground.output.startswith("e = 0.99")
    assert [row[1] for row in playground.rows()] == ["a", "b", "c", "#3", "#4", "#5"]
    assert playground.page.evaluate("heldMessages") == 0


def test_a_run_ends_with_its_output_and_table_taken_as_frames_start(open_playground, site):
    playground = open_playground(site, setup=hold_wake_ups)
    assert playground.page.evaluate("heldWakeUps") > 0
    assert playground.run() == "done"
    assert playground.output.startswith("e = 0.99")
    assert [row[1] for row in playground.rows()] == ["a", "b", "c", "#3", "#4", "#5"]
    assert playground.run("print('next')") == "done"
    assert playground.output == "next\n"


def test_a_message_longer_than_the_mailbox_comes_whole_and_in_order(playground):
    code = f"print('first')\nprint({LONG_LINE[:1]!r} * {len(LONG_LINE)})\nprint('last')\n"
    assert playground.run(code) == "done"
    assert playground.output == f"first\n{LONG_LINE}\nlast\n"
    assert playground.run("print('next')") == "done"
    assert playground.output == "next\n"


def test_without_isolation_the_port_carries_the_run(open_playground, plain_site):
    playground = open_playground(plain_site, setup=hold_run_messages)
    playground.button("Run").click()
    playground.page.wait_for_function("heldMessages >= 2", timeout=RUN_MS)  # output, result
    assert playground.state == "running"


def test_what_comes_after_a_message_that_restarts_python_is_not_taken(playground):
    # The run reaches in: its result restarts Python. Its ping's answer comes after it,
    # and with the page busy both are in the mailbox when the page wakes: the answer is
    # the old worker's, and taken it would end no run ("a message for no run").
    playground.code = "import sys\nframe = sys._getframe()\nprint('ran')\n"
    playground.record_statuses()
    playground.element.evaluate(  # the run is sent, then the page is busy for 3 s
        "el => { el.run(); const end = performance.now() + 3000;"
        " while (performance.now() < end); }")
    playground.wait_for("done")
    assert any("starting a fresh Python (the last run reached into the playground itself: "
               "sys._getframe, line 2)" in status for status in playground.statuses_shown)
