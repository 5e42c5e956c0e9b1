"""Every ```sh and ```python block of clients/python/README.md, run as written, in order: a block
that cannot run as written is a bug of the README.

    python3 -m unittest discover -s clients/python/tests -v -p test_readme.py

The blocks run from a scratch copy of the repository's root: clients/python copied (pip builds in
it), pipeline.yaml copied (the build writes out/ beside it), the rest linked (docs/, Samples/,
Sources/, scripts/, .build/, …; .build/release/feedc must exist). Shell blocks run with `bash -e`, Python blocks with the
`python3` on the path: the path leads to a virtual environment (test_packaging.build_venv) whose
pip builds offline (PIP_NO_BUILD_ISOLATION=0, which pip reads as --no-build-isolation, and
PIP_NO_INDEX=1). The README serves the samples on 127.0.0.1:8765 (python3 -m http.server, in the
background): the port must be free; what a block leaves running is stopped at the end. A pull's
printed line must be written in its block as a `# ` comment. The block that runs the whole suite
(this test included) runs only with FEEDC_README_SUITE=1.
"""
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import unittest

import test_packaging

CLIENT_FOLDER = test_packaging.CLIENT_FOLDER
REPO = os.path.abspath(os.path.join(CLIENT_FOLDER, os.pardir, os.pardir))
README = os.path.join(CLIENT_FOLDER, "README.md")
PORT = 8765
SUITE = "python3 -m unittest discover -s clients/python/tests -v"
PRINTED = ("downloaded full bundle", "up to date", "applied delta")


def blocks(text):
    """[(language, code, line)] of the README's ```sh and ```python blocks, in order."""
    found = []
    for match in re.finditer(r"^```(sh|python)\n(.*?)^```$", text, re.M | re.S):
        found.append((match.group(1), match.group(2), text.count("\n", 0, match.start()) + 1))
    return found


def sizes(text):
    """A printed line with its byte counts as `N`: "…, 22412 bytes; …" → "…, N bytes; …"."""
    return re.sub(r"\d+ bytes", "N bytes", text)


def port_open(port):
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0


def scratch_root(folder):
    """A copy of the repository's root, as far as the README needs one."""
    root = os.path.join(folder, "repo")
    os.makedirs(os.path.join(root, "clients"))
    shutil.copytree(CLIENT_FOLDER, os.path.join(root, "clients", "python"), symlinks=True,
                    ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    shutil.copy(os.path.join(REPO, "pipeline.yaml"), root)
    for name in os.listdir(REPO):
        if name not in ("clients", "pipeline.yaml", "out") and (name == ".build" or not name.startswith(".")):
            os.symlink(os.path.join(REPO, name), os.path.join(root, name))
    return root


class ReadmeTests(unittest.TestCase):
    def setUp(self):
        with open(README, encoding="utf-8") as f:
            self.text = f.read()

    def test_the_blocks_are_found(self):
        found = blocks(self.text)
        self.assertGreaterEqual(len(found), 10)
        self.assertEqual({language for language, _, _ in found}, {"sh", "python"})
        self.assertEqual(sum(SUITE in code for _, code, _ in found), 1)
        self.assertNotIn("sys.path.insert", self.text)

    def test_every_block_runs_as_written(self):
        feedc = os.path.join(REPO, ".build", "release", "feedc")
        self.assertTrue(os.access(feedc, os.X_OK), "no %s (swift build -c release --product feedc)" % feedc)
        self.assertFalse(port_open(PORT), "127.0.0.1:%d is in use; the README serves the samples there" % PORT)
        folder = tempfile.mkdtemp(prefix="feedc-readme-")
        self.addCleanup(shutil.rmtree, folder, ignore_errors=True)
        root = scratch_root(folder)
        bin_folder, how = test_packaging.build_venv(folder)
        env = test_packaging.clean_env(PATH=bin_folder + os.pathsep + os.environ.get("PATH", ""),
                                       VIRTUAL_ENV=os.path.dirname(bin_folder), PYTHONDONTWRITEBYTECODE="1")
        if how is not None:
            env.update(PIP_NO_BUILD_ISOLATION="0", PIP_NO_INDEX="1")
        for n, (language, code, line) in enumerate(blocks(self.text)):
            if SUITE in code and os.environ.get("FEEDC_README_SUITE") != "1":
                continue
            with open(os.path.join(folder, "out-%d" % n), "w+") as out:
                args = ["bash", "-e", "-c", code] if language == "sh" else ["python3", "-c", code]
                # A session of its own: what the block leaves running (the server) is stopped at the end.
                child = subprocess.Popen(args, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, start_new_session=True)
                self.addCleanup(self.stop, child.pid)
                try:
                    status = child.wait(600)
                except subprocess.TimeoutExpired:
                    status = "killed after 600 s"
                out.seek(0)
                printed = out.read()
            self.assertEqual(status, 0, "README.md line %d, the %s block:\n%s\nprinted:\n%s"
                             % (line, language, code, printed[-4000:]))
            if "http.server %d" % PORT in code:
                give_up = time.monotonic() + 10
                while not port_open(PORT) and time.monotonic() < give_up:
                    time.sleep(0.05)
            if language == "sh":
                # The sizes a block shows are an example: any bundle change moves them.
                written = {sizes(text[2:]) for text in code.splitlines() if text.startswith("# ")}
                for text in printed.splitlines():
                    if text.startswith(PRINTED):
                        self.assertIn(sizes(text), written, "README.md line %d: a pull printed a line the block "
                                                            "does not show: %s" % (line, text))

    @staticmethod
    def stop(group):
        """Stops what is left of the process group this test started (the block's session):
        SIGKILL, since a runner may have left SIGTERM ignored, and children inherit that."""
        try:
            os.killpg(group, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


if __name__ == "__main__":
    unittest.main()
