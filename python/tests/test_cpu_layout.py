# SPDX-License-Identifier: Apache-2.0
# The ctypes mirrors of tcj/_lib.py against include/tcj.h as a C compiler sees it: every field's
# offset and every struct's size (a small C program prints offsetof and sizeof), the fields'
# names and order as the header declares them, and every enumerator's value. No GPU needed.
import ctypes
import os
import re
import shutil
import subprocess

import pytest

from conftest import REPO, header_text, need
from tcj import _lib

STRUCTS = {"tcj_gemm_desc": _lib.GemmDesc, "tcj_options": _lib.Options, "tcj_stats": _lib.Stats}


def _cuda_include():
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if root and os.path.isfile(os.path.join(root, "include", "cuda.h")):
            return os.path.join(root, "include")
    if os.path.isfile("/usr/include/cuda.h"):
        return "/usr/include"
    return None


@pytest.fixture(scope="module")
def c_values(tmp_path_factory):
    """{name: value} from C: "sizeof S", "offsetof S field" and each enumerator's name."""
    cc = shutil.which(os.environ.get("CC", "cc"))
    need(cc is not None, "no C compiler (cc, or $CC) to print tcj.h's offsets with")
    cuda = _cuda_include()
    need(cuda is not None, "cuda.h not found (tcj.h includes it): set CUDA_HOME")
    lines = ["#include <stddef.h>", "#include <stdio.h>", "#include <tcj.h>", "int main(void) {"]
    for cname, cls in STRUCTS.items():
        lines.append('  printf("sizeof %s %%zu\\n", sizeof(%s));' % (cname, cname))
        for field, _ in cls._fields_:
            lines.append('  printf("offsetof %s %s %%zu\\n", offsetof(%s, %s));' % (cname, field, cname, field))
    for names in _lib.C_NAMES.values():
        for cname in names.values():
            lines.append('  printf("%s %%lld\\n", (long long)%s);' % (cname, cname))
    lines += ["  return 0;", "}"]
    d = tmp_path_factory.mktemp("layout")
    src, exe = d / "layout.c", d / "layout"
    src.write_text("\n".join(lines) + "\n")
    r = subprocess.run([cc, "-std=c11", "-I", os.path.join(REPO, "include"), "-I", cuda, str(src), "-o", str(exe)],
                       capture_output=True, text=True)
    assert r.returncode == 0, "the layout program does not compile (a field or enumerator of " \
                              "tcj/_lib.py is not in tcj.h?):\n" + r.stderr
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
    values = {}
    for line in out.splitlines():
        key, value = line.rsplit(" ", 1)
        values[key] = int(value)
    return values


@pytest.mark.parametrize("cname", sorted(STRUCTS))
def test_struct_layout(c_values, cname):
    cls = STRUCTS[cname]
    assert ctypes.sizeof(cls) == c_values["sizeof " + cname]
    for field, _ in cls._fields_:
        assert getattr(cls, field).offset == c_values["offsetof %s %s" % (cname, field)], field


def _struct_fields(cname):
    """The field names of typedef struct cname { ... } cname; in tcj.h, in order."""
    text = re.sub(r"/\*.*?\*/", " ", header_text(), flags=re.S)
    body = re.search(r"typedef struct %s \{(.*?)\} %s;" % (cname, cname), text, re.S).group(1)
    names = []
    for decl in body.split(";"):
        decl = decl.strip()
        if not decl:
            continue
        first, *rest = decl.split(",")
        names.append(re.findall(r"[A-Za-z_]\w*", first)[-1])
        names += [re.findall(r"[A-Za-z_]\w*", r)[-1] for r in rest]
    return names


@pytest.mark.parametrize("cname", sorted(STRUCTS))
def test_struct_fields_match_header(cname):
    # Catches a field missing from the mirror where padding would hide it from the offsets.
    assert [f for f, _ in STRUCTS[cname]._fields_] == _struct_fields(cname)


def test_enum_values(c_values):
    for cls, names in _lib.C_NAMES.items():
        for member, cname in names.items():
            assert int(member) == c_values[cname], "%s.%s (%s)" % (cls.__name__, member.name, cname)


def _header_enumerators():
    """{C enum type name: [enumerator names]} of tcj.h, tcj_status from TCJ_STATUS_LIST."""
    text = re.sub(r"/\*.*?\*/", " ", header_text(), flags=re.S)
    enums = {}
    for name, body in re.findall(r"typedef enum (\w+) \{(.*?)\}", text, re.S):
        if name == "tcj_status":
            continue
        enums[name] = [e.split("=")[0].strip() for e in body.split(",") if e.strip()]
    status_list = re.search(r"#define TCJ_STATUS_LIST\(X\)(.*?)\n\n", text, re.S).group(1)
    enums["tcj_status"] = re.findall(r"X\((TCJ_\w+),", status_list)
    return enums


def test_every_enumerator_mirrored():
    mirrored = {c for names in _lib.C_NAMES.values() for c in names.values()}
    header = {e for names in _header_enumerators().values() for e in names}
    assert len(_header_enumerators()) == len(_lib.C_NAMES), sorted(_header_enumerators())
    assert header == mirrored, "in tcj.h only: %s; in _lib.py only: %s" % (
        sorted(header - mirrored), sorted(mirrored - header))
