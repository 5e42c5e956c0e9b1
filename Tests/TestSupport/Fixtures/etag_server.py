"""A tiny HTTP server for fetch tests, on 127.0.0.1 only.

Serves the files of a folder with an ETag (SHA-256 of the bytes) and answers 304 to a matching
If-None-Match. /status/500 answers 500. Hostile answers for the download limits: /endless sends
zeros without a Content-Length until the client hangs up (3 GB at most), /huge announces 10 GB
and sends zeros likewise, /drip sends one byte a second. /moved/PATH redirects (302) to PATH on
another host name of this server (localhost, not 127.0.0.1), as a CDN would. /error/N answers N
with an S3 error's XML (SlowDown from 500 up, AccessDenied below). HEAD answers a file's or /huge's
head. PUT /echo answers 200 with the body it got; PUT /moved/… and /error/N as GET does. Prints its
port on the first line, appends each request
as `METHOD PATH STATUS` to the log file, and stops when its standard input ends (the test that
started it let it go, or ended, crashed or was killed), however long the test run took; `seconds`
is only a last-resort bound, on the server and on each hostile body.

    python3 etag_server.py FOLDER SECONDS LOGFILE
"""
import hashlib, http.server, os, sys, threading, time

root, seconds, logfile = sys.argv[1], float(sys.argv[2]), sys.argv[3]

class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path in ("/endless", "/huge", "/drip"):
            self.send_response(200)
            if self.path == "/huge":
                self.send_header("Content-Length", str(10 << 30))
            self.end_headers()
            self.log("GET", 200)
            chunk, sent, start = bytes(1 << 16), 0, time.time()
            try:
                while sent < 3 << 30 and time.time() - start < seconds:
                    if self.path == "/drip":
                        self.wfile.write(b"P"); self.wfile.flush(); time.sleep(1)
                    else:
                        self.wfile.write(chunk); sent += len(chunk)
            except OSError:
                pass  # the client hung up, as it should
            self.close_connection = True
            return
        if self.path.startswith("/cut/"):
            # The file under /cut/, announced whole but cut off after half its bytes.
            path = os.path.join(root, self.path[len("/cut/"):])
            data = open(path, "rb").read()
            self.send_response(200); self.send_header("Content-Length", str(len(data))); self.end_headers()
            self.wfile.write(data if path.endswith(".json") else data[: len(data) // 2]); self.wfile.flush()
            self.log("GET", 200); self.close_connection = True; return
        if self.path.startswith("/moved/"):
            self.answer_moved("GET"); return
        if self.path.startswith("/error/"):
            self.answer_error("GET"); return
        if self.path.startswith("/status/"):
            # Logged before the answer: a client that reads the log once answered sees the request.
            self.log("GET", int(self.path.split("/")[2])); self.send_response(int(self.path.split("/")[2])); self.end_headers(); return
        path = os.path.join(root, self.path.lstrip("/"))
        if not os.path.isfile(path):
            self.log("GET", 404); self.send_response(404); self.end_headers(); return
        data = open(path, "rb").read()
        etag = '"%s"' % hashlib.sha256(data).hexdigest()[:16]
        if self.headers.get("If-None-Match") == etag:
            self.log("GET", 304); self.send_response(304); self.send_header("ETag", etag); self.end_headers(); return
        self.log("GET", 200)
        self.send_response(200); self.send_header("ETag", etag); self.send_header("Content-Length", str(len(data))); self.end_headers()
        self.wfile.write(data)

    def do_HEAD(self):
        if self.path == "/huge":
            length = 10 << 30
        else:
            path = os.path.join(root, self.path.lstrip("/"))
            if not os.path.isfile(path):
                self.log("HEAD", 404); self.send_response(404); self.end_headers(); return
            length = os.path.getsize(path)
        self.log("HEAD", 200)
        self.send_response(200); self.send_header("Content-Length", str(length)); self.end_headers()

    def do_PUT(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.path.startswith("/moved/"):
            self.answer_moved("PUT"); return
        if self.path.startswith("/error/"):
            self.answer_error("PUT"); return
        self.log("PUT", 200)
        self.send_response(200); self.send_header("Content-Length", str(len(body))); self.end_headers()
        self.wfile.write(body)

    def answer_moved(self, method):
        self.log(method, 302)
        self.send_response(302)
        self.send_header("Location", "http://localhost:%d/%s" % (self.server.server_address[1], self.path[len("/moved/"):]))
        self.send_header("Content-Length", "0"); self.end_headers()

    def answer_error(self, method):
        status = int(self.path.split("/")[2])
        code = "SlowDown" if status >= 500 else "AccessDenied"
        data = ("<?xml version=\"1.0\"?><Error><Code>%s</Code><Message>refused by the test server</Message></Error>" % code).encode()
        self.log(method, status)
        self.send_response(status); self.send_header("Content-Length", str(len(data))); self.end_headers()
        self.wfile.write(data)

    def log(self, method, status):
        with open(logfile, "a") as f:
            f.write("%s %s %d\n" % (method, self.path, status))

    def log_message(self, *args):
        pass

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
last_resort = threading.Timer(seconds, server.shutdown)
last_resort.daemon = True  # the interpreter must not wait for it once the server has stopped
last_resort.start()


def stop_when_the_test_goes():
    sys.stdin.buffer.read()
    server.shutdown()


threading.Thread(target=stop_when_the_test_goes, daemon=True).start()
server.serve_forever()
