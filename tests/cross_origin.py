"""A web page on another origin (another loopback port) that calls the API by POST and by GET and
shows each answer, as a web frontend on its own host does.

`page_elsewhere()` serves the page on a free port; open `<origin>/?api=<api base URL>` in a browser,
wait for `document.body.dataset.done`, then read `#post` and `#get`: the `canonical_reference` of
hadith 100001, or `refused: <error>` when the browser did not let the page read the answer.
"""

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PAGE = b"""<!doctype html>
<html><body>
<p>POST: <span id="post"></span></p>
<p>GET: <span id="get"></span></p>
<script>
  const api = new URLSearchParams(location.search).get("api") + "/graphql";
  const query = "{ get_hadith(hadith_id: 100001) { canonical_reference } }";
  async function call(method) {
    try {
      const response = method === "POST"
        ? await fetch(api, { method, headers: { "content-type": "application/json" }, body: JSON.stringify({ query }) })
        : await fetch(api + "?query=" + encodeURIComponent(query));
      return (await response.json()).data.get_hadith.canonical_reference;
    } catch (error) {
      return "refused: " + error;
    }
  }
  (async () => {
    document.getElementById("post").textContent = await call("POST");
    document.getElementById("get").textContent = await call("GET");
    document.body.dataset.done = "yes";
  })();
</script>
</body></html>
"""


class _Page(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/html; charset=utf-8")
        self.send_header("content-length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the test reads what the browser shows, not the log."""


@contextmanager
def page_elsewhere() -> Iterator[str]:
    """The page's origin, `http://127.0.0.1:<port>`, while it is served."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
