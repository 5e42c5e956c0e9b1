"""Runs a test's server tied to the test process, so that no server outlives the tests.

    python3 tethered.py PROGRAM [ARGUMENT...]

Starts PROGRAM in a process group of its own and stops the whole group (SIGTERM, then SIGKILL
after 5 s) when its standard input reaches its end: the test closed its end of the pipe, or the
test process ended, crashed or was killed. Also stops it on SIGTERM, and exits with PROGRAM's
status when PROGRAM ends by itself. A server left running by a crashed test would otherwise
keep the test run's output open, and CI would wait for it until its time ran out.
"""
import os, signal, subprocess, sys, threading, time

child = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, start_new_session=True)


def stop(*_):
    try:
        os.killpg(child.pid, signal.SIGTERM)
        deadline = time.time() + 5
        while child.poll() is None and time.time() < deadline:
            time.sleep(0.05)
        os.killpg(child.pid, signal.SIGKILL)  # workers a master left behind, if any
    except ProcessLookupError:
        pass
    os._exit(0)


def watch():
    while sys.stdin.buffer.read(65536):
        pass
    stop()


signal.signal(signal.SIGTERM, stop)
signal.signal(signal.SIGINT, stop)
threading.Thread(target=watch, daemon=True).start()
os._exit(child.wait())
