"""uvicorn's httptools protocol with overload in mind: it answers the probes and sheds at the connection, and
rests a connection that was refused for capacity. It builds on `app/http/disconnect.py`'s (a lost connection
cancels its request's work), and `GuardedProtocol` (`app/http/slow_clients.py`), which `serve` runs, on it.

- Probes: a `GET` or `HEAD` of `/healthz`, or of `/readyz` while its last background check is recent
  (`app/http/probes.py`), is answered once its head is read, in the loop turn that reads it: no task, which
  would wait for the next turn of a loop that is busy with the admitted requests.
- Shedding: once a request's head is read, when admission can take it neither in a place nor in its queue
  (`app/http/shedding.py`, handed over in the lifespan's state), the 503 is written as one buffer once its
  body is read, and the app never sees it: no task, no middleware, no request log line. A request while an
  earlier one on the connection is still answered (pipelined), or one that asks to close the connection,
  goes the usual way.
- Resting: a connection whose request was refused for capacity (here, by the front door or by admission,
  which mark the request, `app/http/admission.py`'s `shed`) is not read again for the seconds its
  `Retry-After` asks. A client that sends its next request at once waits in its own socket, so that a
  thousand of them cannot spend the worker's loop on refusals while the admitted requests wait their turn in
  it; a client that honours `Retry-After` sees no difference.
"""

from uvicorn.protocols.http.httptools_impl import STATUS_LINE

from app.http.admission import SHED
from app.http.disconnect import WatchingProtocol
from app.http.probes import PROBE_METHODS, PROBE_PATHS, PROBES_KEY, Probes, probe_headers
from app.http.shedding import STATE_KEY, Headers, Shed, Shedding


class SheddingProtocol(WatchingProtocol):
    early: bytes | None = None  # the answer of the request being read, written once its body is read
    rest_s = 0  # that answer is a refusal for capacity: the seconds the connection rests after it

    def on_headers_complete(self) -> None:
        may = self._may_answer()
        probe = self._probe() if may else None
        refusal = self._refusal() if may and probe is None else None
        if refusal is None:
            self.early, self.rest_s = probe, 0
        else:
            self.early, self.rest_s = _wire(503, refusal.headers, refusal.body), refusal.retry_after_s
        if self.early is None:
            super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if self.early is None:
            super().on_body(body)

    def on_message_complete(self) -> None:
        if self.early is None:
            super().on_message_complete()
            return
        self.transport.write(self.early)
        self.early = None
        if self.rest_s:
            self._rest(self.rest_s)
        self.timeout_keep_alive_task = self.loop.call_later(self.timeout_keep_alive, self.timeout_keep_alive_handler)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        rest_s = self.scope.get(SHED)
        if isinstance(rest_s, int) and rest_s:
            self._rest(rest_s)

    def _may_answer(self) -> bool:
        """Neither an earlier request on the connection still answered (pipelined) nor a request to close it."""
        answering = self.cycle is not None and not self.cycle.response_complete
        return not answering and self.parser.should_keep_alive()

    def _path(self) -> str:
        return self.url.partition(b"?")[0].decode("latin-1")

    def _probe(self) -> bytes | None:
        found: Probes | None = self.app_state.get(PROBES_KEY)
        method = self.parser.get_method().decode("latin-1")
        if found is None or method not in PROBE_METHODS or (path := self._path()) not in PROBE_PATHS:
            return None
        answer = found.at_once(path)
        if answer is None:
            return None
        status, body = answer
        return _wire(status, probe_headers(body, dict(self.headers)), b"" if method == "HEAD" else body)

    def _refusal(self) -> Shed | None:
        shedding: Shedding | None = self.app_state.get(STATE_KEY)
        if shedding is None or not shedding.places.full():
            return None
        return shedding.answer(self._path(), dict(self.headers))

    def _rest(self, seconds: int) -> None:
        if not self.transport.is_closing():
            self.flow.pause_reading()
            self.loop.call_later(seconds, self.flow.resume_reading)


def _wire(status: int, headers: Headers, body: bytes) -> bytes:
    """An answer as one buffer on the wire: its status line, its headers and its body."""
    return b"".join([STATUS_LINE[status], *(name + b": " + value + b"\r\n" for name, value in headers), b"\r\n", body])
