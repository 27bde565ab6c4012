"""Learner data is text, never markup; the site needs nothing beyond its own origin."""

from urllib.parse import urlparse

XSS = "<img src=x onerror=alert(1)>"


def test_a_label_with_markup_shows_as_text_and_runs_no_script(playground):
    dialogs, requests = [], []
    playground.page.on("dialog", lambda dialog: (dialogs.append(dialog), dialog.dismiss()))
    playground.page.on("request", lambda request: requests.append(request.url))
    code = f"from engine import Graph, MakeValue\ng = Graph()\nMakeValue(g, 1.0, label={XSS!r})\n"
    code += f"print({XSS!r})\n"
    assert playground.run(code) == "done"
    assert playground.rows()[0][1] == XSS
    assert playground.output.strip() == XSS
    assert playground.element.locator("img").count() == 0
    assert dialogs == []
    assert not [url for url in requests if url.endswith("/x")]


def test_the_example_passes_with_every_request_beyond_localhost_blocked(open_playground, site):
    leaving = []

    def only_local(route):
        if urlparse(route.request.url).hostname in ("127.0.0.1", "localhost"):
            route.continue_()
        else:
            leaving.append(route.request.url)
            route.abort()

    playground = open_playground(site, setup=lambda context: context.route("**/*", only_local))
    assert playground.run() == "done"
    assert len(playground.rows()) == 6
    assert leaving == []


def test_code_can_import_micropip_from_the_site_and_the_engine_is_installed(playground):
    code = "import importlib.metadata, micropip\n"
    code += "print(micropip.__version__, importlib.metadata.version('autograd-engine'))\n"
    assert playground.run(code) == "done"
    micropip_version, engine_version = playground.output.split()
    assert micropip_version == "0.11.1" and engine_version[0].isdigit()
