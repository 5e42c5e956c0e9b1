"""`pip install clients/python` (pyproject.toml, built by hatchling): into a fresh virtual
environment, straight from the checkout, which it must leave as it was (no build/, no
*.egg-info); then `feedc-client --help`, `feedc-query --list` and `import feedc_client` from a
folder outside the checkout; `feedc-live`, installed without its `live` extra (no index here),
says how to get gtfs-realtime-bindings, the one dependency, which only that extra requires.

    python3 -m unittest discover -s clients/python/tests -v -p test_packaging.py

`build_venv` makes a venv whose pip builds the client without an index (`--no-build-isolation
--no-index`): it installs hatchling into it from the wheel folders of PIP_FIND_LINKS and
/usr/share/python-wheels when they hold it, else from the package index pip is configured with.
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

CLIENT_FOLDER = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
# pyproject.toml's build backend.
BACKEND = "hatchling>=1.18"
WHEEL_FOLDERS = ("/usr/share/python-wheels",)


def clean_env(**extra):
    """The environment for the venv's programs: no PYTHONPATH or virtualenv of the caller."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env.update(extra)
    return env


def _run(args, **kwargs):
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          env=kwargs.pop("env", None) or clean_env(), **kwargs)


def can_build(python):
    return _run([python, "-c", "import hatchling.build"]).returncode == 0


def build_venv(folder):
    """A venv at `folder`/venv with the build backend in it, so that its pip builds clients/python
    without an index: (its bin folder, where the backend came from). AssertionError, saying what
    was tried, when neither a wheel folder nor the index gives it."""
    venv = os.path.join(folder, "venv")
    bin_folder = os.path.join(venv, "bin")
    python = os.path.join(bin_folder, "python")
    made = _run([sys.executable, "-m", "venv", venv])
    assert made.returncode == 0, "%s -m venv: %s" % (sys.executable, made.stdout[-500:])
    folders = [f for f in os.environ.get("PIP_FIND_LINKS", "").split() if os.path.isdir(f)]
    folders += [f for f in WHEEL_FOLDERS if os.path.isdir(f)]
    tried = []
    if folders:
        links = sum((["--find-links", f] for f in folders), [])
        done = _run([python, "-m", "pip", "install", "--no-index"] + links + [BACKEND])
        if done.returncode == 0 and can_build(python):
            return bin_folder, "hatchling from a local wheel folder"
        tried.append("wheel folders %s: %s" % (", ".join(folders), done.stdout.strip()[-300:]))
    done = _run([python, "-m", "pip", "install", BACKEND])
    if done.returncode == 0 and can_build(python):
        return bin_folder, "hatchling from the package index"
    tried.append("the package index: %s" % done.stdout.strip()[-300:])
    raise AssertionError("cannot get the build backend (%s) into a venv:\n  %s" % (BACKEND, "\n  ".join(tried)))


def checkout_files():
    """Every file and folder under clients/python, bytecode caches aside."""
    found = set()
    for folder, dirs, files in os.walk(CLIENT_FOLDER):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        found.update(os.path.relpath(os.path.join(folder, name), CLIENT_FOLDER) for name in dirs + files)
    return found


def install_in_venv(folder):
    """build_venv, then clients/python pip-installed into it from the checkout: (bin folder, how)."""
    bin_folder, how = build_venv(folder)
    done = _run([os.path.join(bin_folder, "python"), "-m", "pip", "install", "--no-deps", "--no-build-isolation",
                 "--no-index", CLIENT_FOLDER])
    assert done.returncode == 0, "pip install failed (%s):\n%s" % (how, done.stdout[-2000:])
    return bin_folder, "%s, pip install --no-deps --no-build-isolation --no-index clients/python" % how


class PackagingTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp(prefix="feedc-packaging-")
        cls.before = checkout_files()
        cls.bin, cls.how = install_in_venv(cls.folder)
        cls.after = checkout_files()
        cls.outside = os.path.join(cls.folder, "elsewhere")
        os.mkdir(cls.outside)
        print("\ninstalled with: %s" % cls.how, file=sys.stderr)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.folder, ignore_errors=True)

    def run_outside(self, *args):
        """A program of the venv, run from a folder outside the checkout."""
        done = _run(list(args), cwd=self.outside, env=clean_env(PYTHONDONTWRITEBYTECODE="1"))
        self.assertEqual(done.returncode, 0, done.stdout)
        return done.stdout

    def test_the_console_script(self):
        out = self.run_outside(os.path.join(self.bin, "feedc-client"), "--help")
        self.assertTrue(out.startswith("usage: feedc-client "), out)
        self.assertIn("pull", out)
        out = self.run_outside(os.path.join(self.bin, "feedc-client"), "pull", "--help")
        self.assertIn("--public-key", out)

    def test_the_checkout_is_left_as_it_was(self):
        self.assertEqual(sorted(self.after - self.before), [], "pip install wrote into clients/python")
        self.assertEqual(sorted(self.before - self.after), [])

    def test_the_query_command(self):
        out = self.run_outside(os.path.join(self.bin, "feedc-query"), "--list")
        names = [line.split(" ")[0] for line in out.splitlines()]
        self.assertIn("next_departures", names)
        self.assertIn("next_departures date after previous_after stop_id limit lang", out.splitlines())
        with open(os.path.join(CLIENT_FOLDER, os.pardir, os.pardir, "docs", "bundle-format.md"), encoding="utf-8") as f:
            documented = f.read().count("```sql\n-- query: ")
        self.assertEqual(len(names), documented)
        done = _run([os.path.join(self.bin, "feedc-query"), os.path.join(self.outside, "none.sqlite"), "stops_near"],
                    cwd=self.outside)
        self.assertEqual(done.returncode, 2, done.stdout)
        self.assertIn("no bundle file at", done.stdout)

    def test_the_modules_import_from_the_installed_copy(self):
        code = ("import json, os, sys, importlib.metadata as m\n"
                "import feedc_client, feedc_planner\n"
                "from feedc_client import FeedClient, UpdateError, fold_query\n"
                "assert fold_query('Café & Bäckerei-Nord') == 'cafe and backerei nord'\n"
                "print(os.path.dirname(feedc_client.__file__))\n"
                "print(json.dumps(m.requires('feedc-client')))\n"
                "print(m.metadata('feedc-client')['Requires-Python'])\n")
        folder, requires, python = self.run_outside(os.path.join(self.bin, "python"), "-c", code).splitlines()
        self.assertTrue(folder.startswith(self.folder) and "site-packages" in folder, folder)
        # Standard library only, but for the live layer's extra.
        self.assertEqual((json.loads(requires), python), (["gtfs-realtime-bindings==3.0.0; extra == 'live'"], ">=3.9"))

    def test_the_live_command_without_its_extra(self):
        done = _run([os.path.join(self.bin, "feedc-live"), "bundle.sqlite", "--feed", "x.pb", "--source", "s", "--report"],
                    cwd=self.outside)
        self.assertEqual(done.returncode, 2, done.stdout)
        self.assertIn("pip install 'feedc-client[live]'", done.stdout)
        self.assertNotIn("Traceback", done.stdout)

    def test_every_client_module_is_installed(self):
        modules = sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(CLIENT_FOLDER, "feedc_*.py")))
        self.assertGreaterEqual(len(modules), 14)
        installed = glob.glob(os.path.join(self.folder, "venv", "lib", "python*", "site-packages", "feedc_*.py"))
        self.assertEqual(sorted(os.path.basename(p)[:-3] for p in installed), modules)


if __name__ == "__main__":
    unittest.main()
