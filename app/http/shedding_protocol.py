"""uvicorn's httptools protocol with overload in mind: it sheds at the connection, and rests a connection that
was refused for capacity. `GuardedProtocol` (`app/http/slow_clients.py`), which `serve` runs, builds on it.

- Shedding: once a request's head is read, when admission can take it neither in a place nor in its queue
  (`app/http/shedding.py`, handed over in the lifespan's state), the 503 is written as one buffer once its
  body is read, and the app never sees it: no task, no middleware, no request log line. A request while an
  earlier one on the connection is still answered (pipelined), or one that asks to close the connection,
  goes the usual way.
- Resting: a connection whose request was refused for capacity (here, by the front door or by admission,
  which mark the request, `app/http/admission.py`'s `shed`) is not read again for the second its
  `Retry-After` asks. A client that sends its next request at once waits in its own socket, so that a
  thousand of them cannot spend the worker's loop on refusals while the admitted requests wait their turn in
  it; a client that honours `Retry-After` sees no difference.
"""

from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol

from app.http.admission import RETRY_AFTER_S, SHED
from app.http.shedding import STATE_KEY, Shedding


class SheddingProtocol(HttpToolsProtocol):
    refusal: bytes | None = None  # the 503 of the request being read, written once its body is read

    def on_headers_complete(self) -> None:
        self.refusal = self._refusal()
        if self.refusal is None:
            super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if self.refusal is None:
            super().on_body(body)

    def on_message_complete(self) -> None:
        if self.refusal is None:
            super().on_message_complete()
            return
        self.transport.write(self.refusal)
        self.refusal = None
        self._rest()
        self.timeout_keep_alive_task = self.loop.call_later(self.timeout_keep_alive, self.timeout_keep_alive_handler)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.scope.get(SHED):
            self._rest()

    def _refusal(self) -> bytes | None:
        shedding: Shedding | None = self.app_state.get(STATE_KEY)
        answering = self.cycle is not None and not self.cycle.response_complete
        if shedding is None or not shedding.places.full() or answering or not self.parser.should_keep_alive():
            return None
        answer = shedding.answer(self.url.partition(b"?")[0].decode("latin-1"), dict(self.headers))
        if answer is None:
            return None
        headers, body = answer
        return b"".join([STATUS_LINE[503], *(name + b": " + value + b"\r\n" for name, value in headers), b"\r\n", body])

    def _rest(self) -> None:
        if not self.transport.is_closing():
            self.flow.pause_reading()
            self.loop.call_later(RETRY_AFTER_S, self.flow.resume_reading)
