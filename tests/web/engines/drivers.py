"""Debian's Firefox ESR and WebKitGTK, each driven through the protocol it speaks.

Playwright drives only its own builds of Firefox and WebKit, which cannot be
downloaded here. Debian's Firefox speaks Marionette, Mozilla's own protocol:
Mozilla's `marionette_driver` starts it, headless, on a fresh profile, with no
geckodriver between them (the npm packages download geckodriver as they install;
on PyPI, one ships only the Windows build and one a third party's copy of
geckodriver 0.33 from 2023). WebKitGTK has a
WebDriver of its own, `WebKitWebDriver`, which Selenium drives; it starts
WebKitGTK's MiniBrowser, in a window on the X display it is given, with
ephemeral storage.

Both come behind the same small surface, `Browser`. Each sends every request
for a host other than 127.0.0.1 to a proxy of the tests' own (`proxy`).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any, Protocol
from unittest import mock

from marionette_driver.errors import ScriptTimeoutException
from marionette_driver.marionette import Marionette
from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.webkitgtk.options import Options
from selenium.webdriver.webkitgtk.service import Service

import build

# How much of Firefox's log a timeout shows.
LOG_LINES = 40

# How long WebKitGTK's session may take to start before it is tried once more. Its
# driver once waited 95 minutes on a MiniBrowser that was gone, with no error.
WEBKIT_START_S = 90
# How long any later request to WebKitGTK's driver may wait for its answer, past a page
# load's 300 s and the tests' scripts' 180 s (Selenium's own default is forever): a
# MiniBrowser gone mid-test then fails the test instead of hanging it.
WEBKIT_COMMAND_S = 360


class Element(Protocol):
    def click(self) -> None: ...


class Browser(Protocol):
    """One browser window, with storage of its own."""

    name: str  # "firefox" or "webkit"

    def open(self, url: str) -> None: ...

    def script(self, source: str, *args: Any) -> Any:
        """Run a function body in the page (its arguments in `arguments`); returns what it
        returns, elements included."""

    def wait(self, source: str, *args: Any, timeout_ms: int) -> Any:
        """Run a function body in the page that calls its last argument with a result;
        returns the result, or raises TimeoutError once `timeout_ms` has passed."""

    def quit(self) -> None: ...


class Firefox:
    name = "firefox"

    def __init__(self, proxy: int, log: Path) -> None:
        prefs = {
            "network.proxy.type": 1,  # manual
            "network.proxy.http": "127.0.0.1",
            "network.proxy.http_port": proxy,
            "network.proxy.ssl": "127.0.0.1",
            "network.proxy.ssl_port": proxy,
            # The page's and its workers' console messages go to the log, which a
            # test that timed out shows.
            "devtools.console.stdout.content": True,
        }
        # marionette_driver points Firefox's Remote Settings at a data: URL, but a
        # release build heeds that only with this variable set; without it, Firefox
        # asks Mozilla's server for updates as it starts.
        with mock.patch.dict(os.environ, {"MOZ_REMOTE_SETTINGS_DEVTOOLS": "1"}):
            self.marionette = Marionette(
                bin=str(build.FIREFOX), port=0, headless=True, prefs=prefs, gecko_log=str(log)
            )
        self.marionette.start_session()
        self.log = log

    def open(self, url: str) -> None:
        self.marionette.navigate(url)

    # sandbox=None runs scripts in the page itself, where the element's own
    # properties and methods (`code`, `run()`) are seen.
    def script(self, source: str, *args: Any) -> Any:
        return self.marionette.execute_script(source, script_args=args, sandbox=None)

    def wait(self, source: str, *args: Any, timeout_ms: int) -> Any:
        try:
            return self.marionette.execute_async_script(
                source, script_args=args, sandbox=None, script_timeout=timeout_ms
            )
        except ScriptTimeoutException:
            lines = self.log.read_text(encoding="utf-8", errors="replace").splitlines()
            log = "\n".join(lines[-LOG_LINES:])
            message = f"timed out after {timeout_ms} ms; Firefox's log ends:\n{log}"
            raise TimeoutError(message) from None

    def quit(self) -> None:
        self.marionette.quit(in_app=False)
        self.marionette.cleanup()


class WebKit:
    name = "webkit"

    def __init__(self, proxy: int, display: str) -> None:
        options = Options()
        options.binary_location = str(build.minibrowser())
        options.add_argument("--automation")
        options.add_argument(f"--proxy=http://127.0.0.1:{proxy}")
        options.add_argument("--ignore-host=127.0.0.1")
        try:
            self.driver = self.start(options, display)
        except Exception:  # noqa: BLE001 - whatever stopped it, one more try
            self.driver = self.start(options, display)
        self.driver.command_executor.client_config.timeout = WEBKIT_COMMAND_S

    @staticmethod
    def start(options: Options, display: str) -> webdriver.WebKitGTK:
        """A session, or an error once WEBKIT_START_S have passed: the driver is then
        killed, which ends the request that waits on it."""
        # The driver path is given, so Selenium Manager has nothing to download.
        service = Service(
            executable_path=str(build.WEBKIT_DRIVER), env={**os.environ, "DISPLAY": display}
        )
        deadline = threading.Timer(WEBKIT_START_S, lambda: service.process.kill())
        deadline.start()
        try:
            return webdriver.WebKitGTK(options=options, service=service)
        finally:
            deadline.cancel()

    def open(self, url: str) -> None:
        self.driver.get(url)

    def script(self, source: str, *args: Any) -> Any:
        return self.driver.execute_script(source, *args)

    def wait(self, source: str, *args: Any, timeout_ms: int) -> Any:
        self.driver.set_script_timeout(timeout_ms / 1000)
        try:
            return self.driver.execute_async_script(source, *args)
        except TimeoutException:
            raise TimeoutError(f"timed out after {timeout_ms} ms") from None

    def quit(self) -> None:
        self.driver.quit()
