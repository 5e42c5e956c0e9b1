"""Bundles the Python tests build with `feedc build`: one pipeline.yaml of several bundles in a
folder, built once, each unpacked (the plain `.sqlite.gz`, not the packed one) beside it."""
import glob
import gzip
import os
import shutil
import subprocess


def build(feedc, folder, bundles):
    """{name: unpacked .sqlite}: `bundles` ({name: [(source id, dump path), ...]}) built by
    `feedc build` in `folder`."""
    with open(os.path.join(folder, "pipeline.yaml"), "w", encoding="utf-8") as f:
        f.write("output: out\nbundles:\n")
        for name, sources in bundles.items():
            f.write("  - name: %s\n    sources:\n" % name)
            f.write("".join("      - id: %s\n        path: %s\n" % source for source in sources))
    subprocess.run([feedc, "build", "-c", "pipeline.yaml"], cwd=folder, check=True, stdout=subprocess.DEVNULL)
    out = {}
    for name in bundles:
        gzipped, = [path for path in glob.glob(os.path.join(folder, "out", name, "bundles", "*.sqlite.gz"))
                    if not path.endswith(".packed.sqlite.gz")]
        out[name] = os.path.join(folder, name + ".sqlite")
        with gzip.open(gzipped) as source, open(out[name], "wb") as target:
            shutil.copyfileobj(source, target)
    return out
