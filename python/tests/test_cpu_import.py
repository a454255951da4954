# SPDX-License-Identifier: Apache-2.0
# The package without a GPU: import without torch, the version, a missing library's error, the
# library's own functions, and engine creation failing with the library's message where there is
# no driver or device.
import ctypes
import subprocess
import sys

import pytest

from conftest import header_version, need, subprocess_env
import tcj
from tcj import _lib

# Imports tcj with torch made unimportable, and checks that nothing imported it.
_NO_TORCH = r"""
import sys
class _NoTorch:
    def find_spec(self, name, path=None, target=None):
        if name == "torch" or name.startswith("torch."):
            raise ImportError("torch is blocked by this test")
sys.meta_path.insert(0, _NoTorch())
import tcj
assert "torch" not in sys.modules
print(tcj.__version__)
print(sorted(tcj.stats()))
print(tcj.Dtype.BF16, tcj.Act.SWIGLU, tcj.GroupMode.M_MASKED)
"""


def _run(code, **env):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=subprocess_env(**env))


def test_import_without_torch_or_gpu():
    r = _run(_NO_TORCH)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == tcj.__version__


def test_version_is_the_headers():
    assert tcj.__version__ == "%d.%d.%d" % header_version()


def test_missing_library_names_what_was_tried():
    code = ("import tcj\ntry:\n    tcj.version()\nexcept tcj.TcjError as e:\n"
            "    print(e.status.name); print(e)\nelse:\n    print('no error')")
    r = _run(code, TCJ_LIBRARY="/nonexistent/libtcj.so.1")
    assert r.returncode == 0, r.stderr
    status, message = r.stdout.splitlines()[:2]
    assert status == "ERROR_NO_DEVICE"
    assert "/nonexistent/libtcj.so.1" in message and "TCJ_LIBRARY" in message


def test_library_version(libtcj):
    assert tcj.version() == header_version()


def test_new_desc_has_the_init_defaults(libtcj):
    d = libtcj.new_desc()
    assert d.struct_size == ctypes.sizeof(libtcj.GemmDesc)
    assert d.alpha == 1.0 and d.alpha_f64 == 1.0 and d.beta == 0.0 and d.m == 0
    assert d.group_mode == tcj.GroupMode.NONE and d.a is None


def test_stats_before_any_engine(libtcj):
    s = tcj.stats()
    assert set(s) == {f for f, _ in libtcj.Stats._fields_} - {"struct_size"}
    assert all(v == 0 for v in s.values())


def test_set_jit_mode(libtcj, monkeypatch):
    monkeypatch.setattr(libtcj, "_engine_options", {})
    tcj.set_jit_mode("generic")
    assert libtcj._engine_options == {"jit_mode": tcj.JitMode.GENERIC}
    tcj.set_jit_mode(tcj.JitMode.SYNC)
    assert libtcj._engine_options == {"jit_mode": tcj.JitMode.SYNC}
    with pytest.raises(ValueError, match="fast"):
        tcj.set_jit_mode("fast")
    with pytest.raises(ValueError, match="not a tcj_options field"):
        libtcj.set_engine_option("no_such_field", 1)


def _gpu_present():
    cu = _lib._driver()
    if cu is None or cu.cuInit(0) != 0:
        return False
    count = ctypes.c_int(0)
    return cu.cuDeviceGetCount(ctypes.byref(count)) == 0 and count.value > 0


def test_engine_without_gpu_raises_the_librarys_error(libtcj):
    if _gpu_present():
        pytest.skip("a CUDA device is present: this test is for machines without one")
    with pytest.raises(tcj.TcjError) as info:
        libtcj.engine(0)
    e = info.value
    assert e.status in (tcj.Status.ERROR_NO_DEVICE, tcj.Status.ERROR_CUDA)
    # The library's own words (tcj_last_error), e.g. "cannot open libcuda.so.1 (no CUDA driver)".
    assert e.message and e.message == libtcj.lib().tcj_last_error(None).decode()
    assert 0 not in libtcj._engines  # a failed creation is not cached: the next call tries again


def _fake_so(path):
    """A loadable shared object at path (a stand-in for a wheel's libnvJitLink)."""
    import shutil
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler to make a stand-in shared object")
    path.parent.mkdir(parents=True, exist_ok=True)
    src = path.parent / "stand_in.c"
    src.write_text("int tcj_test_stand_in(void) { return 7; }\n")
    subprocess.run([cc, "-shared", "-fPIC", "-o", str(path), str(src)], check=True)


def test_pip_wheel_nvjitlink_is_preloaded_only_without_the_toolkits(tmp_path, monkeypatch):
    site = tmp_path / "site"
    wheel_lib = site / "nvidia" / "cu13" / "lib" / "libnvJitLink.so.13"
    _fake_so(wheel_lib)
    for v in ("CUDA_HOME", "CUDA_PATH"):
        monkeypatch.delenv(v, raising=False)
    monkeypatch.setenv("LD_LIBRARY_PATH", "")
    monkeypatch.setattr(_lib, "_SYSTEM_DIRS", ())
    monkeypatch.setattr(_lib.ctypes.util, "find_library", lambda name: None)
    monkeypatch.setattr(sys, "path", [str(tmp_path / "empty"), str(site)])
    monkeypatch.setattr(_lib, "pip_libraries", [])
    _lib._preload_pip_libs()
    assert _lib.pip_libraries == [str(wheel_lib)]
    # With the toolkit's copy on LD_LIBRARY_PATH, the wheel's is left alone.
    toolkit = tmp_path / "toolkit"
    _fake_so(toolkit / "libnvJitLink.so.13")
    monkeypatch.setenv("LD_LIBRARY_PATH", str(toolkit))
    monkeypatch.setattr(_lib, "pip_libraries", [])
    _lib._preload_pip_libs()
    assert _lib.pip_libraries == []


_FAKE_WARMUP = r"""#!/bin/sh
# stands in for tcj-warmup: prints its arguments and devices, then a summary (or fails)
echo "args: $*"
echo "visible: $CUDA_VISIBLE_DEVICES"
case "$*" in *bad.yaml*) echo "manifest error" >&2; exit 2 ;; esac
case "$*" in *broken.yaml*) echo "compiled=0 hit=0 failed=1 seconds=0.5"; exit 1 ;; esac
echo "compiled=3 hit=2 failed=0 seconds=1.25"
"""


def test_warmup_of_a_manifest_runs_the_tool(tmp_path, monkeypatch, capsys):
    from tcj import ops, _warmup_tool
    tool = tmp_path / "tcj-warmup"
    tool.write_text(_FAKE_WARMUP)
    tool.chmod(0o755)
    monkeypatch.setenv("TCJ_WARMUP", str(tool))
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "4,6")
    monkeypatch.setitem(_lib._engine_options, "cache_dir", b"/some/cache")
    manifest = tmp_path / "m.yaml"
    manifest.write_text("problems: []\n")
    assert ops.warmup(manifest, device=1) == {"compiled": 3, "hit": 2, "failed": 0,
                                              "seconds": 1.25}
    out = capsys.readouterr().out  # the tool's lines are passed through as they come
    assert f"args: --cache-dir /some/cache {manifest}" in out and "visible: 6" in out
    for name, err in (("bad.yaml", ValueError), ("broken.yaml", _lib.TcjError)):
        (tmp_path / name).write_text("x\n")
        with pytest.raises(err):
            ops.warmup(str(tmp_path / name))
    with pytest.raises(ValueError, match="is not a file"):
        ops.warmup(str(tmp_path / "missing.yaml"))
    monkeypatch.setenv("TCJ_WARMUP", str(tmp_path / "nowhere"))
    with pytest.raises(FileNotFoundError, match="TCJ_WARMUP"):
        _warmup_tool.find_tool()


def test_warmup_of_a_manifest_with_the_real_tool(tmp_path, monkeypatch):
    """The build's own tcj-warmup (next to TCJ_LIBRARY, as the wheel's is) compiles a manifest's
    kernel for sm_80 through nvJitLink, with no GPU, into the cache directory given (the CPU
    tests of the C library compile for sm_80 through nvJitLink as well, so it is there)."""
    from tcj import ops, _warmup_tool
    monkeypatch.delenv("TCJ_WARMUP", raising=False)
    try:
        tool = _warmup_tool.find_tool()
    except FileNotFoundError:
        pytest.skip("no tcj-warmup next to the library or on PATH (a build without libyaml)")
    manifest = tmp_path / "m.yaml"
    manifest.write_text("targets: [sm_80]\nproblems:\n"
                        "  - {name: p, m: 128, n: 256, k: 512, dtype: bf16}\n")
    monkeypatch.setitem(_lib._engine_options, "cache_dir", str(tmp_path / "cache").encode())
    first = ops.warmup(manifest)
    assert first["compiled"] == 1 and first["failed"] == 0, first
    assert ops.warmup(manifest)["hit"] == 1  # the second run finds it in the cache
