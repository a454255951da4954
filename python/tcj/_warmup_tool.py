# SPDX-License-Identifier: Apache-2.0
# tcj.warmup(manifest): runs the tcj-warmup tool, which reads the YAML manifest (libyaml, in C)
# and compiles each kernel into the disk cache the engines read; the package parses no YAML.
"""A warmup manifest through the ``tcj-warmup`` tool (see the README's Tools section).

The tool is looked for as ``$TCJ_WARMUP`` (a path), then next to the library (the package's
``bin/tcj-warmup``, a build tree's ``tools/tcj-warmup``, an install's ``../bin/tcj-warmup``),
then on ``PATH``. It compiles for the
GPU of ``device`` (the child sees only that device) into the cache directory engines use
(``set_engine_option("cache_dir", ...)`` if set, else ``$TCJ_CACHE_DIR`` and the defaults the
tool shares with the library). Its progress lines go to this process's stdout as they come.
"""

import os
import shutil
import subprocess
import sys

from . import _lib


def _candidates():
    env = os.environ.get("TCJ_WARMUP")
    if env:
        return [env]
    here = []
    try:
        lib_dir = os.path.dirname(os.path.abspath(_lib.library_path()))
        here = [os.path.join(lib_dir, "bin", "tcj-warmup"),  # the wheel's (pyproject.toml)
                os.path.join(lib_dir, "tools", "tcj-warmup"),
                os.path.join(lib_dir, os.pardir, "bin", "tcj-warmup")]
    except _lib.TcjError:
        pass  # no library: the tool may still be on PATH
    found = shutil.which("tcj-warmup")
    return here + ([found] if found else [])


def find_tool():
    """The tcj-warmup executable's path, or FileNotFoundError naming the places tried."""
    tried = _candidates()
    for path in tried:
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    raise FileNotFoundError("tcj.warmup: a manifest is compiled by the tcj-warmup tool, not found "
                            "(tried: %s; set $TCJ_WARMUP to its path)"
                            % (", ".join(tried) if tried else "$TCJ_WARMUP, PATH"))


def _child_env(device):
    env = dict(os.environ)
    if device is not None:
        device = int(getattr(device, "index", device) or 0)
        visible = [v for v in env.get("CUDA_VISIBLE_DEVICES", "").split(",") if v.strip()]
        env["CUDA_VISIBLE_DEVICES"] = visible[device] if visible and device < len(visible) \
            else str(device)
    return env


def run_manifest(manifest, device=None, args=()):
    """Runs tcj-warmup on manifest (a path); returns its summary as a dict (compiled, hit,
    failed: ints; seconds: float). Raises ValueError for a manifest the tool refuses (exit 2)
    and TcjError(ERROR_COMPILE) when a kernel failed to compile (exit 1)."""
    manifest = os.fsdecode(manifest)
    if not os.path.isfile(manifest):
        raise ValueError(f"tcj.warmup: manifest {manifest!r} is not a file")
    cmd = [find_tool()]
    cache_dir = _lib._engine_options.get("cache_dir")
    if cache_dir:
        cmd += ["--cache-dir", os.fsdecode(cache_dir)]
    cmd += list(args) + [manifest]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=_child_env(device))
    last = ""
    for line in proc.stdout:
        sys.stdout.write(line)
        if line.strip():
            last = line.strip()
    rc = proc.wait()
    if rc == 2:
        raise ValueError(f"tcj.warmup: tcj-warmup refused {manifest!r} (exit 2; its message "
                         f"is above)")
    if rc != 0:
        raise _lib.TcjError(_lib.Status.ERROR_COMPILE,
                            f"tcj-warmup {manifest!r}: exit {rc} ({last})")
    summary = {}
    for field in last.split():
        key, _, value = field.partition("=")
        if key in ("compiled", "hit", "failed"):
            summary[key] = int(value)
        elif key == "seconds":
            summary[key] = float(value)
    return summary
