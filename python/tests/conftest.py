# SPDX-License-Identifier: Apache-2.0
# Shared set-up of the Python tests: the tcj package under test (the installed one when there is
# one, else python/tcj of this source tree, whose library comes from $TCJ_LIBRARY, e.g. a CMake
# build's libtcj.so.1), the repository's include/tcj.h, and `need`, which skips a test whose
# prerequisite is missing, or fails it under CI (the CI variable set), where nothing may be missing.
import importlib.util
import os
import re
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HEADER = os.path.join(REPO, "include", "tcj.h")
PYTHON_DIR = os.path.join(REPO, "python")

if importlib.util.find_spec("tcj") is None:
    sys.path.insert(0, PYTHON_DIR)


def header_text():
    with open(HEADER) as f:
        return f.read()


def header_version():
    text = header_text()
    return tuple(int(re.search(r"^#define TCJ_VERSION_%s (\d+)" % p, text, re.M).group(1))
                 for p in ("MAJOR", "MINOR", "PATCH"))


def need(condition, reason):
    """Skips the calling test unless condition holds; under CI the test fails instead."""
    if condition:
        return
    if os.environ.get("CI"):
        pytest.fail("%s (CI is set: a missing prerequisite fails)" % reason)
    pytest.skip(reason)


def subprocess_env(**extra):
    """The environment for a child Python that imports the same tcj as this process."""
    import tcj
    env = dict(os.environ)
    pkg_parent = os.path.dirname(os.path.dirname(os.path.abspath(tcj.__file__)))
    env["PYTHONPATH"] = pkg_parent + os.pathsep + env.get("PYTHONPATH", "")
    env.update(extra)
    return env


@pytest.fixture
def libtcj():
    """tcj._lib with its library opened; skips (fails under CI) when it cannot be opened."""
    from tcj import _lib
    try:
        _lib.lib()
    except _lib.TcjError as e:
        need(False, "libtcj cannot be opened (set TCJ_LIBRARY to a build's libtcj.so.1): %s" % e)
    return _lib
