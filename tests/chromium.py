"""Headless Chromium, driven over the DevTools protocol on a pipe, for tests of what a browser sees.

`Chromium.launch(profile)` starts the system's `chromium` (Debian's package; `.ci/run` installs it)
with `--remote-debugging-pipe`: the protocol's JSON messages, each ended by a NUL byte, go in on the
browser's fd 3 and come out on its fd 4, so no port is opened and no websocket library is needed.
Every host but 127.0.0.1 is unresolvable (`--host-resolver-rules`), as behind a firewall. One page
is opened; `requests` lists every URL it asked for, `failures` every load that failed, `errors`
every uncaught exception and console error, and every breach of the page's Content-Security-Policy (which the
browser blocked).
"""

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

OFFLINE = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
# Run in every document before its own scripts: a breach of its policy becomes a console error.
CSP_BREACHES = """document.addEventListener("securitypolicyviolation", (event) =>
  console.error(`content security policy: ${event.effectiveDirective} blocked ${event.blockedURI || "inline"}`));"""
HIGH_FD = 10  # the pipe's ends are moved above the descriptors bash redirects them to


def chromium_or_skip() -> str:
    """The system's chromium; skipped where it is missing, but a failure under CI, which installs it."""
    found = shutil.which("chromium")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("chromium is missing under CI: .ci/run installs it with apt-get")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    return found


class Chromium:
    def __init__(self, process: subprocess.Popen[bytes], to_browser: int, from_browser: int) -> None:
        self.process = process
        self.to_browser = to_browser
        self.from_browser = from_browser
        self.buffer = b""
        self.next_id = 0
        self.session = ""
        self.requests: list[str] = []
        self.failures: list[str] = []
        self.errors: list[str] = []

    @classmethod
    @contextmanager
    def launch(cls, executable: str, profile: Path) -> Iterator["Chromium"]:
        """A browser on a fresh profile folder, a page opened and watched; the browser quits after."""
        browser_in, to_browser = _high_pipe()
        from_browser, browser_out = _high_pipe()
        flags = ["--headless", "--remote-debugging-pipe", f"--user-data-dir={profile}", OFFLINE]
        flags += ["--no-first-run", "--disable-gpu", "--window-size=1400,900", "--disable-background-networking"]
        if os.geteuid() == 0:
            flags.append("--no-sandbox")  # Chromium refuses to start its sandbox as root (CI runs as root)
        command = ["bash", "-c", f'exec "$@" 3<&{browser_in} 4>&{browser_out}', "bash", executable, *flags]
        process = subprocess.Popen(  # noqa: S603 (a fixed command line, no shell input)
            command, pass_fds=(browser_in, browser_out), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        os.close(browser_in)
        os.close(browser_out)
        browser = cls(process, to_browser, from_browser)
        try:
            browser.open_page()
            yield browser
        finally:
            browser.close()

    def close(self) -> None:
        """Asks the browser to quit (its helper processes with it), kills it if it has not in 10 s."""
        with suppress(OSError, RuntimeError, TimeoutError):
            self.session = ""
            self.call("Browser.close", timeout=5)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self.to_browser)
        os.close(self.from_browser)

    def open_page(self) -> None:
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Network", "Runtime"):
            self.call(f"{domain}.enable")
        self.call("Page.addScriptToEvaluateOnNewDocument", source=CSP_BREACHES)

    def call(self, method: str, timeout: float = 30, **params: Any) -> dict[str, Any]:
        """Sends one command (to the page once one is attached) and returns its result."""
        self.next_id += 1
        message: dict[str, Any] = {"id": self.next_id, "method": method, "params": params}
        if self.session:
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self.receive(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply["result"]
                return result
            self.observe(reply)

    def receive(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.from_browser], [], [], left)[0]:
                raise TimeoutError("the browser did not answer in time")
            chunk = os.read(self.from_browser, 1 << 16)
            if not chunk:
                raise RuntimeError("the browser closed its pipe")
            self.buffer += chunk
        message, _, self.buffer = self.buffer.partition(b"\0")
        decoded: dict[str, Any] = json.loads(message)
        return decoded

    def observe(self, event: dict[str, Any]) -> None:
        params = event.get("params", {})
        match event.get("method"):
            case "Network.requestWillBeSent":
                self.requests.append(params["request"]["url"])
            case "Network.loadingFailed":
                self.failures.append(f"{params.get('type')}: {params.get('errorText')}")
            case "Runtime.exceptionThrown":
                self.errors.append(json.dumps(params["exceptionDetails"])[:500])
            case "Runtime.consoleAPICalled" if params.get("type") == "error":
                self.errors.append(json.dumps(params.get("args"))[:500])

    def navigate(self, url: str, timeout: float = 30) -> None:
        """Opens `url` and returns once the page has loaded (its `load` event)."""
        self.call("Page.navigate", url=url)
        deadline = time.monotonic() + timeout
        while (event := self.receive(deadline)).get("method") != "Page.loadEventFired":
            self.observe(event)

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (awaited when it is a promise)."""
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 30) -> Any:
        """The expression's value as soon as it is truthy; a TimeoutError with the page's errors if never."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.2)
        raise TimeoutError(f"never true: {expression}; errors: {self.errors}; failed loads: {self.failures}")

    def screenshot(self, path: Path) -> None:
        data = self.call("Page.captureScreenshot", format="png")["data"]
        path.write_bytes(base64.b64decode(data))


def _high_pipe() -> tuple[int, int]:
    """A pipe whose two ends are numbered HIGH_FD or above, and closed on exec unless passed on."""
    ends = []
    for end in os.pipe():
        ends.append(fcntl.fcntl(end, fcntl.F_DUPFD_CLOEXEC, HIGH_FD))
        os.close(end)
    return ends[0], ends[1]


def hosts(urls: list[str]) -> set[str]:
    """The hosts asked, leaving out data: URLs (the fonts inline in GraphiQL's CSS)."""
    return {urlsplit(url).netloc for url in urls if not url.startswith("data:")}


def keep_screenshot(browser: Chromium, name: str) -> None:
    folder = os.environ.get("ISNAD_TEST_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        browser.screenshot(Path(folder) / name)
