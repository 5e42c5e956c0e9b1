"""A recording proxy in front of an S3 server (rclone serve s3), on 127.0.0.1 only, for tests.

Forwards every request unchanged (Host included, so SigV4 signatures still verify) and appends
one JSON line per request to the log: time, method, path, query, status, body bytes and the
conditional, cache, type and range headers. Prints its port on the first line; stops when its standard input ends (the test that started
it is gone), or after `--seconds` when given.

  --conditional       honour If-Match / If-None-Match on object PUTs as AWS S3 does (the upstream
                      rclone ignores them): under one lock, the object's MD5 on disk (`--root`,
                      the served folder) is compared first, 412 PreconditionFailed on mismatch.
  --refuse-conditional  answer conditional object PUTs 501 NotImplemented, as some stores do.
  --throttle BPS      forward request bodies at BPS bytes a second (a slow upload).
  --drop REGEX:N      cut the first N requests whose "METHOD PATH" matches REGEX after half
                      their body, without an answer (a dropped connection).

    python3 s3_proxy.py --upstream PORT --root DIR --log FILE [options]
"""
import argparse, hashlib, http.client, http.server, json, os, re, socket, sys, threading, time, urllib.parse

parser = argparse.ArgumentParser()
parser.add_argument("--upstream", type=int, required=True)
parser.add_argument("--root", required=True)
parser.add_argument("--log", required=True)
parser.add_argument("--conditional", action="store_true")
parser.add_argument("--refuse-conditional", action="store_true")
parser.add_argument("--throttle", type=int, default=0)
parser.add_argument("--drop", default="")
parser.add_argument("--seconds", type=float, default=0)
args = parser.parse_args()

log_lock, put_lock = threading.Lock(), threading.Lock()
drop_pattern, drops_left = None, 0
if args.drop:
    pattern, count = args.drop.rsplit(":", 1)
    drop_pattern, drops_left = re.compile(pattern), int(count)
HOP = {"connection", "keep-alive", "transfer-encoding", "expect", "proxy-connection", "te", "upgrade"}


def record(entry):
    with log_lock, open(args.log, "a") as f:
        f.write(json.dumps(entry) + "\n")


def etag_on_disk(path):
    local = os.path.join(args.root, urllib.parse.unquote(path).lstrip("/"))
    if not os.path.isfile(local):
        return None
    with open(local, "rb") as f:
        return hashlib.md5(f.read()).hexdigest()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def handle_any(self):
        global drops_left
        parsed = urllib.parse.urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        entry = {"t": time.time(), "method": self.command, "path": parsed.path, "query": parsed.query, "bytes": length,
                 "if_match": self.headers.get("If-Match"), "if_none_match": self.headers.get("If-None-Match"),
                 "cache_control": self.headers.get("Cache-Control"), "content_type": self.headers.get("Content-Type"),
                 "range": self.headers.get("Range")}
        drop = False
        if drop_pattern is not None and drop_pattern.search("%s %s" % (self.command, parsed.path)):
            with log_lock:
                if drops_left > 0:
                    drops_left -= 1
                    drop = True
        if drop:
            self.rfile.read(length // 2)
            entry["status"] = "dropped"
            record(entry)
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        body = self.rfile.read(length) if length else b""
        conditional = self.command == "PUT" and not parsed.query and \
            (self.headers.get("If-Match") or self.headers.get("If-None-Match"))
        if conditional and args.refuse_conditional:
            payload = b"<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>NotImplemented</Code><Message>A header you provided implies functionality that is not implemented</Message></Error>"
            self.answer(501, [("Content-Type", "application/xml")], payload, entry)
            return
        if conditional and args.conditional:
            with put_lock:
                current = etag_on_disk(parsed.path)
                wanted = (self.headers.get("If-Match") or "").strip('"')
                if (self.headers.get("If-None-Match") == "*" and current is not None) or \
                   (self.headers.get("If-Match") and current != wanted):
                    payload = b"<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message></Error>"
                    self.answer(412, [("Content-Type", "application/xml")], payload, entry)
                    return
                self.forward(parsed, body, entry)
        else:
            self.forward(parsed, body, entry)

    def forward(self, parsed, body, entry):
        connection = http.client.HTTPConnection("127.0.0.1", args.upstream, timeout=120)
        try:
            connection.putrequest(self.command, self.path, skip_host=True, skip_accept_encoding=True)
            for name, value in self.headers.items():
                if name.lower() not in HOP and name.lower() != "content-length":
                    connection.putheader(name, value)
            connection.putheader("Content-Length", str(len(body)))
            connection.endheaders()
            if args.throttle and body:
                step = max(1, args.throttle // 10)
                for start in range(0, len(body), step):
                    connection.send(body[start:start + step])
                    time.sleep(0.1)
            elif body:
                connection.send(body)
            response = connection.getresponse()
            payload = response.read()
            headers = [(k, v) for k, v in response.getheaders() if k.lower() not in HOP and k.lower() not in ("content-length", "date", "server")]
            if self.command == "HEAD":
                headers.append(("Content-Length", response.getheader("Content-Length") or "0"))
                self.answer(response.status, headers, b"", entry, length_set=True)
            else:
                self.answer(response.status, headers, payload, entry)
        except (OSError, http.client.HTTPException) as error:
            entry["status"] = "upstream-failed"
            entry["error"] = str(error)
            record(entry)
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        finally:
            connection.close()

    def answer(self, status, headers, payload, entry, length_set=False):
        entry["status"] = status
        record(entry)
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if not length_set:
            self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        if payload and self.command != "HEAD":
            self.wfile.write(payload)

    do_GET = do_HEAD = do_PUT = do_POST = do_DELETE = handle_any


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
if args.seconds > 0:
    threading.Timer(args.seconds, server.shutdown).start()


def stop_when_the_test_goes():
    """The test holds our standard input open while it runs: its end (the test finished, was
    killed or crashed) stops the proxy, however long the test took."""
    sys.stdin.buffer.read()
    server.shutdown()


threading.Thread(target=stop_when_the_test_goes, daemon=True).start()
server.serve_forever()
