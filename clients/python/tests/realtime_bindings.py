"""Google's gtfs-realtime-bindings for the live tests (test_live.py, test_plan_live.py,
test_live_jvm.py): from python3's own packages, else from the repository's .build/venv (or
.build/rclone-pkg, where `.ci/run` installs them when python3 has no venv), added to sys.path."""
import glob, os, sys

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, os.pardir))


def binding_paths():
    """Where `.ci/run` installs the bindings."""
    return (glob.glob(os.path.join(REPO, ".build", "venv", "lib", "python3*", "site-packages"))
            + [os.path.join(REPO, ".build", "rclone-pkg")])


def find_bindings():
    """gtfs_realtime_pb2, from python3's own packages or from .build; None when neither has it."""
    try:
        from google.transit import gtfs_realtime_pb2
        return gtfs_realtime_pb2
    except ImportError:
        pass
    for path in binding_paths():
        if os.path.isdir(path) and path not in sys.path:
            sys.path.append(path)
    for name in [name for name in sys.modules if name == "google" or name.startswith("google.")]:
        del sys.modules[name]  # a `google` namespace found before the paths were added
    try:
        from google.transit import gtfs_realtime_pb2
        return gtfs_realtime_pb2
    except ImportError:
        return None
