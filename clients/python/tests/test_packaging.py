"""`pip install clients/python` (pyproject.toml): into a fresh virtual environment, without the
network, then `feedc-client --help` and `import feedc_client` from a folder outside the checkout.

    python3 -m unittest discover -s clients/python/tests -v -p test_packaging.py

The build needs setuptools (61 or newer) able to make a wheel: 70.1 or newer, or `wheel` beside
it. `build_venv` finds that offline, trying in turn: a venv of this Python; the wheels of
PIP_FIND_LINKS and /usr/share/python-wheels installed into it with --no-index; a venv of this or
another system Python (/usr/bin/python3, …) that sees its system packages. Then `pip install
--no-build-isolation --no-deps --no-index`. With FEEDC_PACKAGING_NETWORK=1 it may instead let pip
fetch the build requirements (`pip install --no-deps`). It installs from a copy of clients/python:
an in-tree build would leave build/ and *.egg-info in the checkout.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

CLIENT_FOLDER = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
# Whether an interpreter's setuptools can build this project's wheel.
CAN_BUILD = ("import importlib.util, setuptools\n"
             "v = tuple(int(x) for x in re.findall(r'\\d+', setuptools.__version__)[:2])\n"
             "assert v >= (61, 0) and (v >= (70, 1) or importlib.util.find_spec('wheel')), v\n")
SYSTEM_PYTHONS = ("/usr/bin/python3", "/usr/local/bin/python3", "/opt/homebrew/bin/python3")
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
    return _run([python, "-c", "import re\n" + CAN_BUILD]).returncode == 0


def copy_client(target):
    """The installable part of clients/python, copied to `target`."""
    shutil.copytree(CLIENT_FOLDER, target, ignore=shutil.ignore_patterns(
        "__pycache__", "tests", "build", "*.egg-info", ".*"))
    return target


def _interpreters():
    """(python, with system site packages) to make the venv from, best first."""
    yield sys.executable, False
    yield sys.executable, True
    seen = {os.path.realpath(sys.executable)}
    for python in SYSTEM_PYTHONS:
        if os.access(python, os.X_OK) and os.path.realpath(python) not in seen:
            seen.add(os.path.realpath(python))
            yield python, True


def _offline_wheels(python):
    """Installs setuptools (and wheel) from the wheel folders on the machine, without an index."""
    folders = [f for f in os.environ.get("PIP_FIND_LINKS", "").split() if os.path.isdir(f)]
    folders += [f for f in WHEEL_FOLDERS if os.path.isdir(f)]
    if not folders:
        return False
    links = sum((["--find-links", f] for f in folders), [])
    for wanted in (["setuptools>=70.1"], ["setuptools>=61", "wheel"]):
        if _run([python, "-m", "pip", "install", "--no-index"] + links + wanted).returncode == 0 and can_build(python):
            return True
    return False


def build_venv(folder):
    """A venv at `folder`/venv whose pip can build clients/python offline (pip install
    --no-build-isolation --no-index): (its bin folder, how it was made), or (…, None) when no way
    works offline and FEEDC_PACKAGING_NETWORK=1 (a plain venv; pip fetches setuptools).
    AssertionError, saying what was tried, when none works."""
    venv = os.path.join(folder, "venv")
    bin_folder = os.path.join(venv, "bin")
    python = os.path.join(bin_folder, "python")
    tried = []
    for base, system in _interpreters():
        how = "%s -m venv%s" % (base, " --system-site-packages" if system else "")
        if system and not can_build(base):
            tried.append("%s: its setuptools cannot build a wheel" % how)
            continue
        shutil.rmtree(venv, ignore_errors=True)
        made = _run([base, "-m", "venv"] + (["--system-site-packages"] if system else []) + [venv])
        if made.returncode != 0:
            tried.append("%s: %s" % (how, made.stdout.strip()[-300:]))
            continue
        if can_build(python):
            return bin_folder, how
        if _offline_wheels(python):
            return bin_folder, how + ", setuptools from a local wheel folder"
        tried.append("%s: no setuptools able to build a wheel, none in a local wheel folder" % how)
    if os.environ.get("FEEDC_PACKAGING_NETWORK") == "1":
        shutil.rmtree(venv, ignore_errors=True)
        _run([sys.executable, "-m", "venv", venv], check=True)
        return bin_folder, None
    raise AssertionError("cannot pip-install clients/python offline (set FEEDC_PACKAGING_NETWORK=1 to let pip "
                         "fetch setuptools):\n  " + "\n  ".join(tried))


def install_in_venv(folder):
    """build_venv, then clients/python (a copy) pip-installed into it: (bin folder, how)."""
    source = copy_client(os.path.join(folder, "src"))
    bin_folder, how = build_venv(folder)
    offline = ["--no-build-isolation", "--no-index"] if how else []
    done = _run([os.path.join(bin_folder, "python"), "-m", "pip", "install", "--no-deps"] + offline + [source])
    assert done.returncode == 0, "pip install failed (%s):\n%s" % (how, done.stdout[-2000:])
    return bin_folder, "%s, pip install --no-deps %s" % (how or "%s -m venv" % sys.executable,
                                                        " ".join(offline) or "(build requirements from the index)")


def declared_modules():
    """The py-modules listed in pyproject.toml."""
    with open(os.path.join(CLIENT_FOLDER, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read()
    listed = re.search(r"py-modules\s*=\s*\[(.*?)\]", text, re.S).group(1)
    return sorted(re.findall(r'"([^"]+)"', listed))


class PackagingTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp(prefix="feedc-packaging-")
        cls.bin, cls.how = install_in_venv(cls.folder)
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

    def test_the_modules_import_from_the_installed_copy(self):
        code = ("import os, sys, importlib.metadata as m\n"
                "import feedc_client, feedc_planner\n"
                "from feedc_client import FeedClient, UpdateError, fold_query\n"
                "assert fold_query('Café & Bäckerei-Nord') == 'cafe and backerei nord'\n"
                "print(os.path.dirname(feedc_client.__file__))\n"
                "print(m.requires('feedc-client'))\n"
                "print(m.metadata('feedc-client')['Requires-Python'])\n")
        folder, requires, python = self.run_outside(os.path.join(self.bin, "python"), "-c", code).splitlines()
        self.assertTrue(folder.startswith(self.folder) and "site-packages" in folder, folder)
        self.assertEqual((requires, python), ("None", ">=3.9"))

    def test_every_client_module_is_listed(self):
        modules = sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(CLIENT_FOLDER, "feedc_*.py")))
        self.assertEqual(declared_modules(), modules)
        installed = glob.glob(os.path.join(self.folder, "venv", "lib", "python*", "site-packages", "feedc_*.py"))
        self.assertEqual(sorted(os.path.basename(p)[:-3] for p in installed), modules)


if __name__ == "__main__":
    unittest.main()
