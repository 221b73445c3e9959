"""A site whose buttons and links download files every way a page can (a link, a button, `Content-Disposition:
attachment`, a blob and a data URL), with files made here: a CSV, a small valid PDF written by hand, a file larger
than the limit and one that never ends. It counts what it sent of each, so a test sees a download stopped early."""

from __future__ import annotations

import threading
import time
import zlib
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import quote

CSV_ROWS = [("region", "units", "revenue"), ("North", "120", "4800"), ("South", "75", "3150"), ("East", "42", "1911")]
CSV = "".join(",".join(row) + "\r\n" for row in CSV_ROWS).encode()
PDF_TEXT = "Quarterly report: the night trains carried 81234 passengers."
BLOB_CSV = "city,trains\nVienna,12\nZurich,9\n"
DATA_TEXT = "hello from a data URL"
HOSTILE_NAME = "../../etc/CON.\u202egpj.exe"
# Whatever the limit of a test, these are well past it; they are sent slowly enough to be stopped on the way.
BIG_BYTES = 40_000_000
ENDLESS_CAP_BYTES = 200_000_000  # the endless stream gives up here (and after ENDLESS_CAP_S), stopped or not
ENDLESS_CAP_S = 30.0  # about 13 MB a second: a chunk every 20 ms
CHUNK = 256 * 1024


def tiny_pdf(text: str) -> bytes:
    """A one-page PDF showing `text` in Helvetica: objects, a compressed content stream, a correct xref table."""
    content = zlib.compress(f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode("latin-1"))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


PAGE = f"""<!doctype html><title>Reports</title>
<h1>Reports</h1>
<a id=csv href="/report.csv" download>Download CSV</a>
<button id=pdf onclick="location.href='/report.pdf'">Download PDF</button>
<button id=blob onclick="saveBlob()">Export table</button>
<a id=data href="data:text/plain;base64,aGVsbG8gZnJvbSBhIGRhdGEgVVJM" download="greeting.txt">Greeting</a>
<a id=hostile href="/hostile">Hostile name</a>
<a id=big href="/big.bin">Big file</a>
<a id=endless href="/endless.bin">Endless file</a>
<script>
function saveBlob() {{
  const blob = new Blob([{BLOB_CSV!r}], {{type: "text/csv"}});
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = "trains.csv";
  document.body.appendChild(link);
  link.click();
  link.remove();
}}
</script>"""


@dataclass
class DownloadSite:
    url: str = ""
    sent: Counter[str] = field(default_factory=Counter)  # bytes of each path that left the server
    finished: set[str] = field(default_factory=set)  # paths sent whole


@contextmanager
def download_site(host: str = "127.0.0.1") -> Iterator[DownloadSite]:
    site = DownloadSite()
    pdf = tiny_pdf(PDF_TEXT)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:  # noqa: N802 - the base class names it so
            path = self.path.split("?", 1)[0]
            if path == "/":
                self._whole(PAGE.encode(), "text/html; charset=utf-8")
            elif path == "/report.csv":
                self._whole(CSV, "text/csv", attachment="report.csv")
            elif path == "/report.pdf":
                self._whole(pdf, "application/pdf", attachment="report.pdf")
            elif path == "/hostile":
                # A header carries latin-1: the name's other characters arrive as RFC 5987 filename*.
                self._whole(b"MZ not really a program", "application/octet-stream",
                            attachment=HOSTILE_NAME)  # fmt: skip
            elif path == "/big.bin":
                self._slow(path, BIG_BYTES)
            elif path == "/endless.bin":
                self._slow(path, None)
            else:
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()

        def _whole(self, body: bytes, kind: str, attachment: str = "") -> None:
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            if attachment:
                self.send_header("Content-Disposition", f"attachment; filename*=UTF-8''{quote(attachment)}")
            self.end_headers()
            self.wfile.write(body)
            site.sent[self.path] += len(body)
            site.finished.add(self.path)

        def _slow(self, path: str, size: int | None) -> None:
            """`size` bytes (announced), or chunked without end, a chunk every few milliseconds."""
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Disposition", f"attachment; filename={path.lstrip('/')}")
            if size is not None:
                self.send_header("Content-Length", str(size))
            else:
                self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk, began = b"x" * CHUNK, time.monotonic()
            goal = size if size is not None else ENDLESS_CAP_BYTES
            try:
                while site.sent[path] < goal and time.monotonic() - began < ENDLESS_CAP_S:
                    piece = chunk[: goal - site.sent[path]]
                    self.wfile.write(piece if size is not None else b"%x\r\n%s\r\n" % (len(piece), piece))
                    self.wfile.flush()
                    site.sent[path] += len(piece)
                    time.sleep(0.02)
                if size is None:
                    self.wfile.write(b"0\r\n\r\n")
                site.finished.add(path)
            except (BrokenPipeError, ConnectionResetError):
                return  # the browser stopped it

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            return

    server = ThreadingHTTPServer((host, 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="download-site", daemon=True)
    thread.start()
    site.url = f"http://{host}:{server.server_address[1]}"
    try:
        yield site
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
